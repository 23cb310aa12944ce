import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openStore } from '../../src/storage/open-store';
import { describeStoreContract } from './store-contract';

const MONGODB_URL = process.env.MONGODB_URL;

if (!MONGODB_URL) console.warn('MongoDB contract suite skipped: set MONGODB_URL to run it (e.g. MONGODB_URL=mongodb://127.0.0.1:27017)');

describeStoreContract(
  'mongodb',
  async () => {
    const uri = MONGODB_URL!;
    // a database per test, dropped afterwards
    const dbName = `folio_contract_${randomUUID().slice(0, 8)}`;
    const admin = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
    await admin.connect();
    const hello = await admin.db('admin').command({ hello: 1 });
    return {
      open: () => openStore({ client: 'mongodb', uri, options: { dbName, serverSelectionTimeoutMS: 5_000 } }, ''),
      atomicTransactions: typeof hello.setName === 'string' || hello.msg === 'isdbgrid',
      async destroy() {
        await admin.db(dbName).dropDatabase();
        await admin.close();
      },
    };
  },
  { describe: MONGODB_URL ? describe : describe.skip },
);

describe('mongodb engine without a server', () => {
  test('fails to start with a clear message when the server cannot be reached in time', async () => {
    const started = Date.now();
    const opening = openStore({ client: 'mongodb', uri: 'mongodb://folio:secret@127.0.0.1:9/folio', options: { serverSelectionTimeoutMS: 300 } }, '');
    await expect(opening).rejects.toThrow(/cannot reach MongoDB at mongodb:\/\/folio:\*\*\*@127\.0\.0\.1:9\/folio within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('an option in the connection string wins over Folio\'s default', async () => {
    const started = Date.now();
    const opening = openStore({ client: 'mongodb', uri: 'mongodb://127.0.0.1:9/folio?serverSelectionTimeoutMS=300' }, '');
    await expect(opening).rejects.toThrow(/within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('needs a connection string', async () => {
    await expect(openStore({ client: 'mongodb' }, '')).rejects.toThrow(/connection string/);
  });
});
