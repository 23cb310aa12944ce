import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { acquireDataDirLock, type DataDirLock } from '../../src/storage/embedded/data-dir-lock';
import { openEmbeddedStore } from '../../src/storage/embedded/create-embedded-store';
import type { Store } from '../../src/storage/types';

/**
 * A worker of a group (several processes on one data folder) waits for SQLite's write lock, which another
 * process may hold for a second (a text index's merge at 200,000 articles), without holding its event loop:
 * its timers and its other requests go on meanwhile. The other process is a second connection here, holding
 * the lock on this thread: were the wait SQLite's busy handler, the timer releasing the lock could not run
 * before the handler gave up (5 s), and the write would fail with SQLITE_BUSY.
 */

const HELD_MS = 400;

let dir: string;
let lock: DataDirLock;
let store: Store;
let other: Database.Database;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folio-group-lock-'));
  lock = acquireDataDirLock(dir);
  store = openEmbeddedStore(dir, { lockHolder: process.pid, workers: 2 });
  await store.collection('articles').insertOne({ title: 'first' });
  other = new Database(join(dir, 'store.sqlite'));
});

afterEach(async () => {
  other.close();
  await store.close();
  lock.release();
  rmSync(dir, { recursive: true, force: true });
});

const ticksDuring = async (ms: number, work: Promise<unknown>): Promise<number[]> => {
  const gaps: number[] = [];
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    gaps.push(now - last);
    last = now;
  }, 10);
  try {
    await work;
    await new Promise((resolve) => setTimeout(resolve, ms));
  } finally {
    clearInterval(timer);
  }
  return gaps;
};

test.each([
  ['a write', (given: Store) => given.collection('articles').insertOne({ title: 'second' })],
  ['a transaction', (given: Store) => given.transaction(async () => given.collection('articles').insertOne({ title: 'second' }))],
])('%s waits for the write lock another process holds, the event loop running meanwhile', async (_, write) => {
  other.exec('BEGIN IMMEDIATE');
  const released = new Promise<void>((resolve) =>
    setTimeout(() => {
      other.exec('COMMIT');
      resolve();
    }, HELD_MS),
  );
  const started = Date.now();
  const written = write(store);
  const gaps = await ticksDuring(0, Promise.all([written, released]));
  expect(Date.now() - started).toBeGreaterThanOrEqual(HELD_MS - 20);
  // a wait in SQLite's busy handler would hold the loop for the whole hold at least; a loaded 2-core CI run
  // gave 147 ms of ordinary scheduling between ticks
  expect(Math.max(...gaps)).toBeLessThan(HELD_MS * 0.75);
  expect((await store.collection('articles').find({})).map((document) => document.title).sort()).toEqual(['first', 'second']);
});
