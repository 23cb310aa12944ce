import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createMutex } from '../../src/storage/embedded/create-mutex';
import { openEmbeddedDatabase } from '../../src/storage/embedded/embedded-database';
import { watchOtherWriters } from '../../src/storage/embedded/other-writers';
import { createReaderPool } from '../../src/storage/embedded/reader-pool';
import type { OpenTransaction, StoreState } from '../../src/storage/embedded/store-state';
import type { WalSync } from '../../src/storage/embedded/wal-sync';
import { transaction, write } from '../../src/storage/embedded/write-lock';

/**
 * Group commit (commit-group): writes that arrive while the WAL is being flushed wait in one open transaction
 * and commit together when that flush ends; a member that fails is undone alone. The flush is the one thing
 * played here (its end decided by the test): the store's write lock, transaction and SQLite file are real.
 */

interface HeldFlushes extends WalSync {
  /** how many flushes were asked for: one per commit */
  asked(): number;
  /** ends every flush asked for so far */
  finish(): void;
}

function heldFlushes(): HeldFlushes {
  let asked = 0;
  let held: Array<() => void> = [];
  let running: Promise<void> | undefined;
  return {
    flushed() {
      asked += 1;
      running = new Promise<void>((resolve) => held.push(resolve));
      return running;
    },
    flushing: () => running,
    size: () => 0,
    close: async () => undefined,
    asked: () => asked,
    finish() {
      const ending = held;
      held = [];
      running = undefined;
      for (const end of ending) end();
    },
  };
}

let dir: string;
let store: StoreState;
let wal: HeldFlushes;
let outside: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'folio-commit-group-'));
  const file = join(dir, 'store.sqlite');
  wal = heldFlushes();
  store = {
    database: openEmbeddedDatabase(file),
    readers: createReaderPool(file, 1),
    others: undefined,
    wal,
    mutex: createMutex(),
    current: new AsyncLocalStorage<OpenTransaction>(),
    group: undefined,
    closed: false,
    toMerge: new Set(),
    merging: false,
  };
  outside = new Database(file, { readonly: true });
});

afterEach(async () => {
  outside.close();
  await store.readers.close();
  store.database.close();
  rmSync(dir, { recursive: true, force: true });
});

const insert = (title: string) => write(store, () => store.database.insert(store.database.state('articles'), { title }));
/** the titles another connection sees: the last commit */
const committedTitles = (): string[] =>
  (outside.prepare(`SELECT json_extract(doc, '$.title') AS title FROM "c:articles" ORDER BY k`).all() as Array<{ title: string }>).map(({ title }) => title);
const settled = (promise: Promise<unknown>) => promise.then(() => 'resolved', () => 'rejected');
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('writes made while a flush runs commit together when it ends, and are acknowledged after their own flush', async () => {
  const first = insert('a');
  await turn();
  expect(wal.asked()).toBe(1);
  expect(committedTitles()).toEqual(['a']);

  const rest = [insert('b'), transaction(store, async () => insert('c')), insert('d')];
  await turn();
  // waiting in the open transaction: neither committed nor acknowledged
  expect(wal.asked()).toBe(1);
  expect(committedTitles()).toEqual(['a']);
  const states = rest.map(settled);

  wal.finish();
  await first;
  await turn();
  expect(wal.asked()).toBe(2);
  expect(committedTitles()).toEqual(['a', 'b', 'c', 'd']);
  // committed, not yet on disk
  expect(await Promise.race([Promise.all(states), turn().then(() => 'pending')])).toBe('pending');

  wal.finish();
  expect(await Promise.all(states)).toEqual(['resolved', 'resolved', 'resolved']);
  expect(store.database.sqlite.inTransaction).toBe(false);
});

test('a member that fails is undone alone: the others of its group commit', async () => {
  const first = insert('a');
  await turn();
  const ok = insert('b');
  const failing = write(store, () => {
    store.database.insert(store.database.state('articles'), { title: 'c' });
    throw new Error('refused');
  });
  const after = insert('d');
  const failed = expect(failing).rejects.toThrow('refused');
  await turn();
  expect(wal.asked()).toBe(1);
  wal.finish();
  await first;
  await turn();
  expect(wal.asked()).toBe(2);
  wal.finish();
  await Promise.all([ok, after, failed]);
  expect(committedTitles()).toEqual(['a', 'b', 'd']);
});

test('when SQLite undoes the whole transaction, every member of the group fails with it, and the next write begins anew', async () => {
  const first = insert('a');
  await turn();
  const earlier = settled(insert('b'));
  const undoing = write(store, () => {
    store.database.insert(store.database.state('articles'), { title: 'c' });
    // what SQLite does on its own after a full disk or an I/O error
    store.database.sqlite.exec('ROLLBACK');
    throw new Error('disk full');
  });
  await expect(undoing).rejects.toThrow('disk full');
  expect(await earlier).toBe('rejected');
  wal.finish();
  await first;

  const next = insert('e');
  await turn();
  wal.finish();
  await next;
  expect(committedTitles()).toEqual(['a', 'e']);
});

test('a commit that fails fails every member of its group, and the next write commits', async () => {
  // a constraint SQLite checks only at COMMIT: a deferred foreign key
  store.database.sqlite.pragma('foreign_keys = ON');
  store.database.sqlite.exec('CREATE TABLE parents (id INTEGER PRIMARY KEY); CREATE TABLE children (parent INTEGER REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)');
  const first = insert('a');
  await turn();
  const members = [insert('b'), write(store, () => store.database.sqlite.prepare('INSERT INTO children (parent) VALUES (1)').run()), insert('c')].map(settled);
  await turn();
  wal.finish();
  await first;
  expect(await Promise.all(members)).toEqual(['rejected', 'rejected', 'rejected']);
  expect(store.database.sqlite.inTransaction).toBe(false);
  expect(committedTitles()).toEqual(['a']);

  const next = insert('d');
  await turn();
  wal.finish();
  await next;
  expect(committedTitles()).toEqual(['a', 'd']);
});

test('a worker of a group of processes commits each write at once: a transaction held open through the flushes would keep the others from the write lock', async () => {
  store = { ...store, others: watchOtherWriters(store.database.sqlite, () => store.database.reload()) };
  const first = insert('a');
  await turn();
  const second = insert('b');
  await turn();
  expect(committedTitles()).toEqual(['a', 'b']);
  expect(store.database.sqlite.inTransaction).toBe(false);
  wal.finish();
  await Promise.all([first, second]);
});
