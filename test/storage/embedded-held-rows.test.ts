import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createByteAllowance, AllowanceSpentError } from '../../src/storage/byte-allowance';
import { openEmbeddedStore } from '../../src/storage/embedded/create-embedded-store';
import { MAX_HELD_BYTES, MAX_HELD_CONDITIONS, MAX_HELD_ROWS } from '../../src/storage/embedded/read-held';
import { holdFolderLockAsPrimary } from '../support/worker-group-lock';
import type { Store, StoredDocument } from '../../src/storage/types';

/**
 * A small collection read often is answered from its rows held in memory (read-held) as of the last commit.
 * Whether an answer came from them is told by a change written to the file behind the store's back (a second
 * connection, which numbers no commit): SQL reads it, held rows do not. Every write through the store, this
 * process's or another worker's, must be seen by the next read.
 */

let dir: string;
const opened: Store[] = [];
let raw: Database.Database | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'folio-held-rows-'));
});

afterEach(async () => {
  raw?.close();
  raw = undefined;
  for (const store of opened.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = (options: Parameters<typeof openEmbeddedStore>[1] = {}): Store => {
  const store = openEmbeddedStore(dir, options);
  opened.push(store);
  return store;
};

/** sets `title` of the row of key `k` without the store knowing */
const writeBehind = (collection: string, k: number, document: StoredDocument): void => {
  raw ??= new Database(join(dir, 'store.sqlite'));
  raw.prepare(`UPDATE "c:${collection}" SET doc = jsonb(?) WHERE k = ?`).run(JSON.stringify(document), k);
};

const titles = async (store: Store, name = 'tags'): Promise<unknown[]> => (await store.collection(name).find({}, { sort: [['n', 1]] })).map((document) => document.title);

const seed = async (store: Store, count = 3): Promise<void> => {
  await store.collection('tags').insertMany(Array.from({ length: count }, (_, index) => ({ n: index + 1, title: `t${index + 1}` })));
};

test('a small collection read often is answered from memory; read from SQL before that, and when held rows are off', async () => {
  const store = open({ holdAfterReads: 2 });
  await seed(store);
  await titles(store);
  writeBehind('tags', 1, { n: 1, title: 'behind' });
  // the second read since the commit is still SQL's; the third holds the rows, read then
  expect(await titles(store)).toEqual(['behind', 't2', 't3']);
  expect(await titles(store)).toEqual(['behind', 't2', 't3']);
  writeBehind('tags', 1, { n: 1, title: 'again' });
  expect(await titles(store)).toEqual(['behind', 't2', 't3']);
  await store.close();
  opened.pop();
  const never = open({ holdAfterReads: Infinity });
  for (let read = 0; read < 20; read++) await titles(never);
  writeBehind('tags', 2, { n: 2, title: 'seen' });
  expect(await titles(never)).toEqual(['again', 'seen', 't3']);
});

test.each([
  ['an insert', (store: Store) => store.collection('tags').insertOne({ n: 4, title: 't4' }), ['t1', 't2', 't3', 't4']],
  ['an update', (store: Store) => store.collection('tags').updateOne({ n: 2 }, { $set: { title: 'two' } }), ['t1', 'two', 't3']],
  ['a delete', (store: Store) => store.collection('tags').deleteOne({ n: 2 }), ['t1', 't3']],
  ['a transaction', (store: Store) => store.transaction(() => store.collection('tags').deleteMany({ n: { $gte: 2 } })), ['t1']],
])('%s through the store is read at once', async (_, write, expected) => {
  const store = open({ holdAfterReads: 0 });
  await seed(store);
  expect(await titles(store)).toEqual(['t1', 't2', 't3']);
  await write(store);
  expect(await titles(store)).toEqual(expected);
});

test('a rolled back transaction leaves what is held as the last commit; its own reads see its writes', async () => {
  const store = open({ holdAfterReads: 0 });
  await seed(store);
  await titles(store);
  const failed = store.transaction(async () => {
    await store.collection('tags').insertOne({ n: 4, title: 't4' });
    expect(await titles(store)).toEqual(['t1', 't2', 't3', 't4']);
    throw new Error('undone');
  });
  await expect(failed).rejects.toThrow('undone');
  expect(await titles(store)).toEqual(['t1', 't2', 't3']);
});

test('while another caller’s transaction is open, a read outside it answers the last commit, and the commit after it', async () => {
  const store = open({ holdAfterReads: 0 });
  await seed(store);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let written!: () => void;
  const inserted = new Promise<void>((resolve) => (written = resolve));
  const transaction = store.transaction(async () => {
    await store.collection('tags').insertOne({ n: 4, title: 't4' });
    written();
    await held;
  });
  await inserted;
  expect(await titles(store)).toEqual(['t1', 't2', 't3']);
  release();
  await transaction;
  expect(await titles(store)).toEqual(['t1', 't2', 't3', 't4']);
});

test('an answer is a copy: changing it changes no later answer', async () => {
  const store = open({ holdAfterReads: 0 });
  await seed(store);
  const [first] = await store.collection('tags').find({ n: 1 });
  first.title = 'changed';
  expect(await store.collection('tags').findOne({ n: 1 })).toEqual(expect.objectContaining({ title: 't1' }));
});

test('an answer is a deep copy, a __proto__ key kept a field as SQL’s answer keeps it', async () => {
  const store = open({ holdAfterReads: 0 });
  const stored = JSON.parse('{"n": 1, "meta": {"__proto__": {"polluted": true}, "list": [{"a": 1}]}}') as StoredDocument;
  await store.collection('tags').insertOne(stored);
  const [first] = await store.collection('tags').find({ n: 1 });
  const [second] = await store.collection('tags').find({ n: 1 });
  expect(first).toEqual(second);
  expect(first).not.toBe(second);
  const meta = first.meta as Record<string, unknown>;
  expect(Object.hasOwn(meta, '__proto__')).toBe(true);
  expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
  (meta.list as Array<Record<string, unknown>>)[0].a = 2;
  expect(((second.meta as Record<string, unknown>).list as Array<Record<string, unknown>>)[0].a).toBe(1);
});

test('filters, sorts, pages and projections as SQL does', async () => {
  const store = open({ holdAfterReads: 0 });
  const tags = store.collection('tags');
  await tags.createIndex({ keys: [['slug', 1]], unique: true });
  await tags.insertMany([{ n: 1, g: 'b', slug: 'x' }, { n: 2, g: 'a' }, { n: 3, g: 'b', slug: 'y' }, { n: 4, g: 'a' }, { n: 5, tags: ['red', 'blue'] }]);
  const ns = async (filter: StoredDocument, options: Parameters<typeof tags.find>[1] = {}) => (await tags.find(filter, options)).map((document) => document.n);
  expect(await ns({ g: 'b' })).toEqual([1, 3]);
  expect(await ns({}, { sort: [['g', 1]] })).toEqual([5, 2, 4, 1, 3]);
  expect(await ns({}, { sort: [['g', -1]], skip: 1, limit: 2 })).toEqual([3, 2]);
  // a unique last key sorted descending: rows without it come in descending key order, as SQL reads the index backwards
  expect(await ns({}, { sort: [['slug', -1]] })).toEqual([3, 1, 5, 4, 2]);
  expect(await ns({ tags: 'blue' })).toEqual([5]);
  expect(await tags.find({ n: { $in: [1, 2] } }, { projection: ['n'] })).toEqual([{ n: 1 }, { n: 2 }]);
  expect(await tags.countDocuments({ g: 'a' })).toBe(2);
});

test('a sort led by a field ascending with the keys (id) is the keys’ order, or its reverse', async () => {
  const store = open({ holdAfterReads: 0 });
  const tags = store.collection('tags');
  await tags.createIndex({ keys: [['id', 1]], unique: true });
  await tags.insertMany([1, 2, 3, 4].map((id) => ({ id, g: id % 2 })));
  const ids = async (sort: Array<[string, 1 | -1]>, skip = 0) => (await tags.find({}, { sort, skip, limit: 3 })).map((document) => document.id);
  expect(await ids([['id', -1]])).toEqual([4, 3, 2]);
  expect(await ids([['id', 1], ['g', 1]], 1)).toEqual([2, 3, 4]);
  expect(await ids([['g', 1], ['id', -1]])).toEqual([4, 2, 3]);
});

test('what is read from held rows counts against the allowance', async () => {
  const store = open({ holdAfterReads: 0 });
  await store.collection('tags').insertMany(Array.from({ length: 10 }, (_, n) => ({ n, body: 'x'.repeat(100) })));
  await store.collection('tags').find({});
  await expect(store.collection('tags').find({}, { allowance: createByteAllowance(500) })).rejects.toBeInstanceOf(AllowanceSpentError);
  const allowance = createByteAllowance(10_000);
  await store.collection('tags').find({ n: { $lt: 2 } }, { allowance });
  expect(Number(allowance.tally[0])).toBeGreaterThan(200);
});

test.each([
  ['more rows than held rows may have', MAX_HELD_ROWS + 1, 10],
  ['more bytes than held rows may have', 10, Math.ceil(MAX_HELD_BYTES / 10) + 1],
])('a collection of %s is read from SQL', async (_, count, length) => {
  const store = open({ holdAfterReads: 0 });
  await store.collection('tags').insertMany(Array.from({ length: count }, (_, index) => ({ n: index + 1, title: 'x'.repeat(length) })));
  for (let read = 0; read < 3; read++) await store.collection('tags').findOne({ n: 1 });
  writeBehind('tags', 1, { n: 1, title: 'behind' });
  expect((await store.collection('tags').findOne({ n: 1 }))?.title).toBe('behind');
});

test.each([
  ['a filter of more conditions than held rows answer', { $or: Array.from({ length: MAX_HELD_CONDITIONS + 1 }, (_, index) => ({ n: index + 1 })) }],
  ['a text search (a reader thread’s work)', { title: { $regex: 'e', $options: 'i' } }],
])('%s is read from SQL while the rows are held', async (_, filter) => {
  const store = open({ holdAfterReads: 0 });
  await store.collection('tags').createIndex({ keys: [['title', 1]], text: true });
  await seed(store);
  await titles(store);
  writeBehind('tags', 1, { n: 1, title: 'behind' });
  // held: the change behind the store's back is not seen by a small filter
  expect(await titles(store)).toEqual(['t1', 't2', 't3']);
  const found = await store.collection('tags').find(filter);
  expect(found.map((document) => document.title)).toContain('behind');
});

test('a collection whose stored documents are past the bytes held rows may have is never read whole', async () => {
  const store = open({ holdAfterReads: 0 });
  await store.collection('tags').insertMany([{ n: 1, title: 'x'.repeat(MAX_HELD_BYTES) }, { n: 2, title: 'small' }]);
  const prepare = Database.prototype.prepare;
  const read: string[] = [];
  const spy = jest.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, source: string) {
    read.push(source);
    return prepare.call(this, source);
  } as typeof prepare);
  try {
    for (let attempt = 0; attempt < 3; attempt++) await store.collection('tags').findOne({ n: 2 });
  } finally {
    spy.mockRestore();
  }
  expect(read.some((source) => source.includes('LEFT JOIN'))).toBe(false);
});

describe('in a worker group', () => {
  holdFolderLockAsPrimary(() => dir, opened);

  test('a write through another worker is read at once by one holding the rows', async () => {
    const one = open({ lockHolder: process.pid, workers: 2, holdAfterReads: 0 });
    const other = open({ lockHolder: process.pid, workers: 2, holdAfterReads: 0 });
    await seed(one);
    expect(await titles(one)).toEqual(['t1', 't2', 't3']);
    expect(await titles(other)).toEqual(['t1', 't2', 't3']);
    await other.collection('tags').updateOne({ n: 1 }, { $set: { title: 'other' } });
    expect(await titles(one)).toEqual(['other', 't2', 't3']);
    await one.collection('tags').insertOne({ n: 4, title: 't4' });
    expect(await titles(other)).toEqual(['other', 't2', 't3', 't4']);
  });

  test("another worker's write to one collection leaves what is held of the others", async () => {
    const one = open({ lockHolder: process.pid, workers: 2, holdAfterReads: 0 });
    const other = open({ lockHolder: process.pid, workers: 2, holdAfterReads: 0 });
    await seed(one);
    await one.collection('authors').insertOne({ n: 1, title: 'a1' });
    expect(await titles(one)).toEqual(['t1', 't2', 't3']);
    expect(await titles(one, 'authors')).toEqual(['a1']);
    writeBehind('tags', 1, { n: 1, title: 'behind' });
    await other.collection('authors').updateOne({ n: 1 }, { $set: { title: 'a2' } });
    expect(await titles(one, 'authors')).toEqual(['a2']);
    expect(await titles(one)).toEqual(['t1', 't2', 't3']);
  });
});
