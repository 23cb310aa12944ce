import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import type { IndexSpec, Store, StoredDocument } from '../../src/storage/types';
import { heldTransaction } from '../support/held-transaction';

/**
 * Text indexes split by fields: reads on the reader threads around a re-partition, and
 * what reads outside an open transaction see once it numbers a new part.
 */
describe('embedded engine: split text indexes and reads apart from the writer', () => {
  let dataDir: string;
  let store: Store;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-partitions-review-'));
    // reader threads cold: a scan waits for its thread's start
    store = await openStore({ client: 'embedded' }, dataDir);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a search sent to a reader thread before its index is split by other fields, answered after, keeps its equality', async () => {
    const items = store.collection('items');
    await items.createIndex({ keys: [['title', 1]], text: true, partition: ['s'] });
    // parts by s: a -> 1, b -> 2; by l once split again: x -> 1, y -> 2
    const documents: StoredDocument[] = Array.from({ length: 200 }, (_, id) => ({ id, title: 'alpha', s: id % 2 === 0 ? 'a' : 'b', l: id % 4 < 2 ? 'x' : 'y' }));
    await items.insertMany(documents);
    // compiled now (part 1, the equality on s dropped), answered once the reader thread has started
    const found = items.find({ title: { $regex: 'alp', $options: 'i' }, s: 'a' }, { projection: ['id', 's'] });
    await items.createIndex({ keys: [['title', 1]], text: true, partition: ['l'] });
    const answered = await found;
    // every state the collection went through has the same 100 documents in s 'a'
    expect({ size: answered.length, others: answered.filter((document) => document.s !== 'a').length }).toEqual({ size: 100, others: 0 });
  });

  test.each<[string, Pick<IndexSpec, 'partition'>]>([
    ['not split', {}],
    ['split', { partition: ['s'] }],
  ])('a transaction writing a document of a new part: reads outside it see the last commit (index %s)', async (_, split) => {
    const items = store.collection('items');
    await items.createIndex({ keys: [['title', 1]], text: true, ...split });
    await items.insertOne({ id: 1, title: 'alpha', s: 'a' });
    const { started, go, done } = heldTransaction(
      store,
      () => items.insertOne({ id: 2, title: 'alpha', s: 'new' }),
      async () => {
        throw new Error('undone');
      },
    );
    await started;
    const searched = (await items.find({ title: { $regex: 'alp', $options: 'i' } })).map((document) => document.id);
    const listed = (await items.find({})).map((document) => document.id);
    go();
    await expect(done).rejects.toThrow('undone');
    // document 2 was never committed
    expect({ searched, listed }).toEqual({ searched: [1], listed: [1] });
  });
});
