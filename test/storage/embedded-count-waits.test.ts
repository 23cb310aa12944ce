import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { openEmbeddedStore } from '../../src/storage/embedded/create-embedded-store';
import { FOLLOW_AT_MOST } from '../../src/storage/embedded/write-log';
import { holdFolderLockAsPrimary } from '../support/worker-group-lock';
import type { Store } from '../../src/storage/types';

/**
 * A total is counted once for every request asking for it while it is being counted (read-totals' count), and
 * another worker's writes move the totals of the collections they wrote (write-log), leaving the others'.
 * Counts are told wherever they run: a statement prepared on this thread, or a request sent to a reader thread.
 */

let dir: string;
const opened: Store[] = [];
let counts: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'folio-count-waits-'));
  counts = 0;
  const isCount = (sql: unknown): boolean => typeof sql === 'string' && sql.startsWith('SELECT count(*) AS n, (SELECT n FROM folio_generations');
  const prepare = Database.prototype.prepare;
  jest.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, source: string) {
    const statement = prepare.call(this, source);
    if (!isCount(source)) return statement;
    const all = statement.all.bind(statement) as (...params: unknown[]) => unknown[];
    return Object.assign(statement, {
      all: (...params: unknown[]) => {
        counts += 1;
        return all(...params);
      },
    });
  } as typeof prepare);
  const postMessage = Worker.prototype.postMessage;
  jest.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, message: unknown, transfer?: readonly Transferable[]) {
    if (Array.isArray(message)) counts += message.filter((request: { sql?: unknown }) => isCount(request?.sql)).length;
    return postMessage.call(this, message, transfer as never);
  });
});

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const open = (options: Parameters<typeof openEmbeddedStore>[1] = {}): Store => {
  const store = openEmbeddedStore(dir, { holdAfterReads: Infinity, ...options });
  opened.push(store);
  return store;
};

const seed = (store: Store, name: string, count: number) =>
  store.collection(name).insertMany(Array.from({ length: count }, (_, index) => ({ n: index + 1, status: index % 4 === 0 ? 'draft' : 'published' })));

test('requests asking at once for a total nobody remembers count it once, and each gets it', async () => {
  const seeding = open();
  await seed(seeding, 'articles', 40);
  await seeding.close();
  opened.pop();
  const store = open();
  counts = 0;
  const totals = await Promise.all(Array.from({ length: 10 }, () => store.collection('articles').countDocuments({ status: 'published' })));
  expect(totals).toEqual(Array(10).fill(30));
  expect(counts).toBe(1);
  // remembered since: moved by a write, not counted again
  await store.collection('articles').insertOne({ n: 41, status: 'published' });
  expect(await store.collection('articles').countDocuments({ status: 'published' })).toBe(31);
  expect(counts).toBe(1);
});

describe('two workers on one folder', () => {
  holdFolderLockAsPrimary(() => dir, opened);

  test("another worker's writes move the totals of the collection they wrote; a write nobody logged, a bulk write or too many writes make them counted again", async () => {
    const one = open({ lockHolder: process.pid, workers: 2 });
    const other = open({ lockHolder: process.pid, workers: 2 });
    await seed(one, 'articles', 8);
    await seed(one, 'tags', 4);
    const published = (store: Store, name: string) => store.collection(name).countDocuments({ status: 'published' });
    expect(await published(one, 'articles')).toBe(6);
    expect(await published(one, 'tags')).toBe(3);
    counts = 0;
    await other.collection('articles').insertOne({ n: 9, status: 'published' });
    await other.collection('articles').updateOne({ n: 1 }, { $set: { status: 'published' } });
    await other.collection('articles').deleteOne({ n: 2 });
    expect(await published(one, 'tags')).toBe(3);
    expect(await published(one, 'articles')).toBe(7);
    expect(counts).toBe(0);
    // a write numbered behind every store's back: the log has a gap
    const raw = new Database(join(dir, 'store.sqlite'));
    raw.prepare("UPDATE folio_generations SET n = n + 1 WHERE collection = 'articles'").run();
    raw.close();
    await other.collection('articles').insertOne({ n: 10, status: 'published' });
    expect(await published(one, 'articles')).toBe(8);
    expect(counts).toBe(1);
    // a bulk write, which its writer's totals are not moved by either, is not logged
    await other.collection('articles').insertMany(Array.from({ length: 20 }, (_, index) => ({ n: 100 + index, status: 'published' })));
    expect(await published(one, 'articles')).toBe(28);
    expect(counts).toBe(2);
    // logged, but more writes than a process follows
    for (let index = 0; index <= FOLLOW_AT_MOST; index++) await other.collection('articles').insertOne({ n: 200 + index, status: 'published' });
    expect(await published(one, 'articles')).toBe(28 + FOLLOW_AT_MOST + 1);
    expect(counts).toBe(3);
  });
});
