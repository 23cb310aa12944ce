import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';
import { heldTransaction } from '../support/held-transaction';

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

/** runs `work` in a transaction held open until the returned `release` is called */
const holdTransaction = async (work: () => Promise<unknown>): Promise<{ release: () => void; done: Promise<void> }> => {
  const { started, go, done } = heldTransaction(store, work);
  await started;
  return { release: go, done };
};

test('reads outside an open transaction that changed the catalog answer from the main connection, and stay right after it', async () => {
  const articles = store.collection('articles');
  await articles.createIndex({ keys: [['category', 1]] });
  await articles.insertMany([{ id: 1, category: 'news' }, { id: 2, category: 'news' }]);
  // the field's first array: its conditions now read the multikey entries, written by the open transaction
  const { release, done } = await holdTransaction(() => articles.insertOne({ id: 3, category: ['x'] }));
  expect(await articles.countDocuments({ category: 'news' })).toBe(2);
  expect((await articles.find({ category: 'news' })).map((article) => article.id)).toEqual([1, 2]);
  release();
  await done;
  expect(await articles.countDocuments({ category: 'news' })).toBe(2);
});

test('a collection created by an open transaction is read outside it', async () => {
  const fresh = store.collection('fresh');
  const { release, done } = await holdTransaction(() => fresh.insertOne({ id: 1, title: 'x' }));
  expect(await fresh.find({})).toEqual([{ id: 1, title: 'x' }]);
  release();
  await done;
});

test('a scan outside an open transaction that changed the catalog answers from the main connection too', async () => {
  const posts = store.collection('posts');
  await posts.insertMany([{ id: 1, topic: 'news' }, { id: 2, topic: 'newsletter' }]);
  // a two-letter literal is decided document by document (a scan, sent to a reader thread when the catalog allows)
  const scan = { topic: { $regex: 'ne', $options: 'i' } };
  const { release, done } = await holdTransaction(() => posts.insertOne({ id: 3, topic: ['x'] }));
  expect(await posts.countDocuments(scan)).toBe(2);
  expect((await posts.findPage(scan, { sort: [['id', 1]], limit: 10 })).documents.map((post) => post.id)).toEqual([1, 2]);
  release();
  await done;
  expect(await posts.countDocuments(scan)).toBe(2);
});

test('a scan of a collection created by an open transaction is read outside it', async () => {
  const created = store.collection('created');
  const { release, done } = await holdTransaction(() => created.insertOne({ id: 1, title: 'xy' }));
  expect(await created.find({ title: { $regex: 'xy', $options: 'i' } })).toEqual([{ id: 1, title: 'xy' }]);
  release();
  await done;
});

test('outside an open transaction, reads, counts and pages see the last commit, not its writes', async () => {
  const books = store.collection('books');
  await books.createIndex({ keys: [['shelf', 1]] });
  await books.insertMany([{ id: 1, shelf: 1, title: 'ab one' }, { id: 2, shelf: 1, title: 'ab two' }]);
  // a two-letter literal is decided document by document: on a reader thread, which sees the last commit
  const scan = { title: { $regex: 'ab', $options: 'i' } };
  const page = async () => {
    const { documents, total } = await books.findPage(scan, { sort: [['id', 1]], limit: 10 });
    return { ids: documents.map((book) => book.id), total };
  };
  const { release, done } = await holdTransaction(async () => {
    await books.insertOne({ id: 3, shelf: 1, title: 'ab three' });
    // the transaction's own reads see its write, and remember the totals they count
    expect(await books.countDocuments(scan)).toBe(3);
    expect(await books.countDocuments({ shelf: 1 })).toBe(3);
  });
  expect((await books.find({ shelf: 1 })).map((book) => book.id)).toEqual([1, 2]);
  expect(await books.countDocuments({ shelf: 1 })).toBe(2);
  expect(await page()).toEqual({ ids: [1, 2], total: 2 });
  release();
  await done;
  expect(await books.countDocuments({ shelf: 1 })).toBe(3);
  expect(await page()).toEqual({ ids: [1, 2, 3], total: 3 });
});

test('outside an open transaction, the collections listed are those of the last commit, as their reads are', async () => {
  const lone = store.collection('lone');
  await lone.insertOne({ id: 1 });
  const { release, done } = await holdTransaction(() => lone.deleteOne({ id: 1 }));
  const listed = (await store.listCollections()).includes('lone');
  const found = (await lone.find({})).length;
  release();
  await done;
  expect({ listed, found, after: (await store.listCollections()).includes('lone') }).toEqual({ listed: true, found: 1, after: false });
});
