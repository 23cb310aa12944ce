import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';

/**
 * A total counted on a reader thread misses the writes committed after its snapshot and those of a
 * transaction still open, which remembered totals already count (writes move them as they are made, not
 * when they commit): they are played onto it before it is remembered, or it would stay wrong.
 */

let dataDir: string;
let store: Store;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-count-tx-'));
  store = await openStore({ client: 'embedded' }, dataDir);
  await store.collection('notes').insertMany([{ id: 1, title: 'ab one' }, { id: 2, title: 'ab two' }]);
});
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a heavy count taken during an open transaction is not kept past its commit', async () => {
  const notes = store.collection('notes');
  // a two-letter literal is decided document by document: on a reader thread, which sees the last commit
  const heavy = { title: { $regex: 'ab', $options: 'i' } };
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let inserted!: () => void;
  const written = new Promise<void>((resolve) => (inserted = resolve));
  const transaction = store.transaction(async () => {
    await notes.insertOne({ id: 3, title: 'ab three' });
    inserted();
    await held;
  });
  await written;
  expect(await notes.countDocuments(heavy)).toBe(2);
  release();
  await transaction;
  expect(await notes.countDocuments(heavy)).toBe(3);
});

test('a total counted on a reader thread while writes commit has them played onto it, and stays exact', async () => {
  const items = store.collection('items');
  await items.createIndex({ keys: [['title', 1]], text: true });
  await items.createIndex({ keys: [['n', 1]] });
  const titles = Array.from({ length: 3000 }, (_, n) => ({ n, title: n % 3 === 0 ? `alpha ${n}` : `beta ${n}` }));
  await items.insertMany(titles);
  const search = { title: { $regex: 'ALPHA', $options: 'i' } };
  const options = { sort: [['n', 1]] as Array<[string, 1 | -1]>, limit: 5 };
  // counted on a reader thread (a search), while writes add, change and remove matches
  const counting = items.findPage(search, options);
  const writes = [
    items.insertOne({ n: 5000, title: 'alpha new' }),
    items.updateOne({ n: 1 }, { $set: { title: 'now alpha' } }),
    items.deleteOne({ n: 0 }),
    items.updateOne({ n: 3 }, { $set: { title: 'no longer' } }),
  ];
  await Promise.all([counting, ...writes]);
  // 1,000 alphas, one added, one renamed in, two gone
  expect((await items.findPage(search, options)).total).toBe(1000);
  expect(await items.countDocuments(search)).toBe(1000);
  await items.insertOne({ n: 5001, title: 'one more ALPHA' });
  expect((await items.findPage(search, options)).total).toBe(1001);
});
