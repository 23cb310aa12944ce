import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openStore } from '../../src/storage/open-store';
import { describeStoreContract } from './store-contract';
import { MONGODB_TEST_URL, onCongo } from '../mongodb/server-kind';

describeStoreContract(
  'mongodb',
  async () => {
    const uri = MONGODB_TEST_URL;
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
  { lacks: onCongo ? { uniqueIndexes: 'the in-process MongoDB server does not enforce unique indexes', sortOrder: 'the in-process MongoDB server sorts nulls, strings, dotted paths and arrays in another order than MongoDB' } : {} },
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
