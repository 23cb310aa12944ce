import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';
import { heldTransaction as held } from '../support/held-transaction';

/**
 * Reads and remembered totals around catalog changes (a new collection, index or text index, a field's first
 * array) and open transactions: a reader thread sees the last commit, the catalog in memory may be ahead of
 * it, and a statement compiled from one catalog may be answered under another.
 */

let dataDir: string;
let store: Store;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-catalog-races-'));
  store = await openStore({ client: 'embedded' }, dataDir);
  // start both reader threads (a scan waits for its thread's start)
  const warm = store.collection('warm');
  await warm.insertMany([{ t: 'ab' }, { t: 'cd' }]);
  await Promise.all([warm.countDocuments({ t: { $regex: 'a', $options: 'i' } }), warm.countDocuments({ t: { $regex: 'c', $options: 'i' } })]);
});
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const heldTransaction = (before: () => Promise<unknown>, after?: () => Promise<unknown>) => held(store, before, after);

test('a write refused inside a transaction that created a collection: reads outside it still see the collection', async () => {
  const fresh = store.collection('fresh');
  const { started, go, done } = heldTransaction(async () => {
    await fresh.createIndex({ keys: [['id', 1]], unique: true });
    await fresh.insertOne({ id: 1, title: 'xy' });
    // refused (unique), caught by the work: the transaction goes on
    await expect(fresh.insertOne({ id: 1, title: 'dup' })).rejects.toThrow(/unique/);
  });
  await started;
  let outside: unknown;
  try {
    outside = await fresh.find({ title: { $regex: 'xy', $options: 'i' } });
  } catch (error) {
    outside = String(error);
  }
  go();
  await done;
  expect(outside).toEqual([{ id: 1, title: 'xy' }]);
});

test('a write refused inside a transaction that gave a field its first array: a count outside it still finds the scalars', async () => {
  const tagged = store.collection('tagged');
  await tagged.createIndex({ keys: [['id', 1]], unique: true });
  await tagged.insertMany([{ id: 1, tag: 'news', title: 'ab' }, { id: 2, tag: 'news', title: 'ab' }]);
  const { started, go, done } = heldTransaction(async () => {
    await tagged.insertOne({ id: 3, tag: ['x'], title: 'zz' });
    await expect(tagged.insertOne({ id: 3, tag: 'y' })).rejects.toThrow(/unique/);
  });
  await started;
  const outside = await tagged.countDocuments({ tag: 'news', title: { $regex: 'ab', $options: 'i' } });
  go();
  await done;
  expect(outside).toBe(2);
});

test('a write refused inside a transaction that added a text index: a total counted outside it is right after the commit', async () => {
  const notes = store.collection('notes1c');
  await notes.insertMany([{ title: 'alpha one' }, { title: 'alpha two' }]);
  const other = store.collection('other1c');
  await other.createIndex({ keys: [['id', 1]], unique: true });
  await other.insertOne({ id: 1 });
  const search = { title: { $regex: 'alpha', $options: 'i' } };
  const { started, go, done } = heldTransaction(async () => {
    await notes.createIndex({ keys: [['title', 1]], text: true });
    await expect(other.insertOne({ id: 1 })).rejects.toThrow(/unique/);
  });
  await started;
  expect(await notes.countDocuments(search)).toBe(2);
  go();
  await done;
  expect(await notes.countDocuments(search)).toBe(2);
});

const LABELLED = { label: 'x', title: { $regex: 'ab', $options: 'i' } };

/** Two labelled documents, and a way to keep both reader threads on a long scan, so that a count sent then waits for one. */
const labelledBehindScans = async (suffix: string) => {
  const slow = store.collection(`slow${suffix}`);
  await slow.insertMany([{ s: `${'a'.repeat(24)}b` }]);
  const labels = store.collection(`labels${suffix}`);
  await labels.insertMany([{ id: 1, label: 'x', title: 'ab one' }, { id: 2, label: 'x', title: 'ab two' }]);
  const scans = () => Promise.all([slow.countDocuments({ s: { $regex: '^(a+)+$' } }), slow.countDocuments({ s: { $regex: '^(a|a)+$' } })]);
  return { labels, scans };
};

test('a total compiled before a transaction gives a field its first array, answered after its commit, is not remembered wrong', async () => {
  const { labels, scans } = await labelledBehindScans('1');
  const { started, go, done } = heldTransaction(
    async () => undefined,
    () => labels.insertOne({ id: 3, label: ['x'], title: 'ab three' }),
  );
  await started;
  const scanning = scans();
  const counting = labels.countDocuments(LABELLED);
  go();
  await Promise.all([done, counting, scanning]);
  expect((await labels.find(LABELLED)).length).toBe(3);
  expect(await labels.countDocuments(LABELLED)).toBe(3);
});

test('a total compiled before a write gives a field its first array, answered after it, is not remembered wrong', async () => {
  const { labels, scans } = await labelledBehindScans('2');
  const scanning = scans();
  const counting = labels.countDocuments(LABELLED);
  await labels.insertOne({ id: 3, label: ['x'], title: 'ab three' });
  await Promise.all([counting, scanning]);
  expect(await labels.countDocuments(LABELLED)).toBe(3);
});

test('reads outside an open transaction answer one state: a count does not change without a write, and a page holds its total', async () => {
  const flip = store.collection('flip');
  await flip.createIndex({ keys: [['category', 1]] });
  await flip.insertMany([{ id: 1, category: 'news' }, { id: 2, category: 'news' }]);
  const { started, go, done } = heldTransaction(() => flip.insertOne({ id: 3, category: 'news' }));
  await started;
  const first = await flip.countDocuments({ category: 'news' });
  const second = await flip.countDocuments({ category: 'news' });
  const found = (await flip.find({ category: 'news' })).length;
  const page = await flip.findPage({ category: 'news' }, { sort: [['id', 1]], limit: 10 });
  go();
  await done;
  expect(second).toBe(first);
  expect(found).toBe(first);
  expect(page.total).toBe(page.documents.length);
});

test('while an open transaction has changed the catalog, counts and pages outside it read its writes, as their documents do', async () => {
  const articles = store.collection('ahead');
  await articles.createIndex({ keys: [['category', 1]] });
  await articles.insertMany([{ id: 1, category: 'news' }, { id: 2, category: 'news' }]);
  // a matching document whose `tags` holds the field's first array: the catalog is ahead until the commit
  const { started, go, done } = heldTransaction(() => articles.insertOne({ id: 3, category: 'news', tags: ['x'] }));
  await started;
  const first = await articles.countDocuments({ category: 'news' });
  const second = await articles.countDocuments({ category: 'news' });
  const found = (await articles.find({ category: 'news' })).map((article) => article.id);
  const page = await articles.findPage({ category: 'news' }, { sort: [['id', 1]], limit: 10 });
  go();
  await done;
  const after = await articles.countDocuments({ category: 'news' });
  expect({ first, second, found, page: { ids: page.documents.map((article) => article.id), total: page.total }, after }).toEqual({
    first: 3,
    second: 3,
    found: [1, 2, 3],
    page: { ids: [1, 2, 3], total: 3 },
    after: 3,
  });
});

test('the count of a collection an open transaction created agrees with its documents outside it', async () => {
  const created = store.collection('created-counted');
  const { started, go, done } = heldTransaction(() => created.insertOne({ id: 1, title: 'x' }));
  await started;
  const first = await created.countDocuments({});
  const second = await created.countDocuments({});
  const page = await created.findPage({}, { limit: 10 });
  go();
  await done;
  expect({ first, second, page: { n: page.documents.length, total: page.total }, after: await created.countDocuments({}) }).toEqual({
    first: 1,
    second: 1,
    page: { n: 1, total: 1 },
    after: 1,
  });
});
