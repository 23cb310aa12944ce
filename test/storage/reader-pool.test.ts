import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { AllowanceSpentError, bytesSpent, createByteAllowance } from '../../src/storage/byte-allowance';
import { createReaderPool, type ReaderPool } from '../../src/storage/embedded/reader-pool';

/**
 * Scans go to the reader threads whatever their load; a short read goes to a reader only when one has no scan
 * pending, so that it never waits behind one.
 */

// a statement that keeps a reader busy for a few hundred milliseconds
const SCAN = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) AS n FROM c';
const SHORT = 'SELECT count(*) AS n FROM notes';

let dataDir: string;
let pool: ReaderPool | undefined;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-reader-pool-'));
  const sqlite = new Database(join(dataDir, 'store.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec("CREATE TABLE notes (k INTEGER PRIMARY KEY, title TEXT); INSERT INTO notes (title) VALUES ('a'), ('b')");
  sqlite.close();
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

test('a short read is refused while every reader has a scan pending, and taken once one is free', async () => {
  pool = createReaderPool(join(dataDir, 'store.sqlite'), 1);
  const scan = pool.all<{ n: number }>(SCAN, []);
  expect(pool.allIfFree(SHORT, [])).toBeUndefined();
  expect(await scan).toEqual([{ n: 3000000 }]);
  expect(await pool.allIfFree(SHORT, [])).toEqual([{ n: 2 }]);
});

test('a short read goes to the reader without a scan and does not wait for the scan', async () => {
  pool = createReaderPool(join(dataDir, 'store.sqlite'), 2);
  // both threads started, so that the scan's thread is the only one busy
  await Promise.all([pool.all(SHORT, []), pool.all(SHORT, [])]);
  const order: string[] = [];
  const scan = pool.all(SCAN, []).then(() => order.push('scan'));
  const short = pool.allIfFree<{ n: number }>(SHORT, []);
  expect(short).toBeDefined();
  await Promise.all([short!.then(() => order.push('short')), scan]);
  expect(order).toEqual(['short', 'scan']);
});

test('scans pending when the pool closes are refused', async () => {
  pool = createReaderPool(join(dataDir, 'store.sqlite'), 1);
  const long = pool.all(SCAN, []).catch((error: Error) => error.message);
  const queued = pool.all(SHORT, []).catch((error: Error) => error.message);
  await pool.close();
  pool = undefined;
  expect(await queued).toBe('the reader thread stopped');
  expect(await long).toBe('the reader thread stopped');
});

test('a read after the pool closed is refused and starts no thread', async () => {
  pool = createReaderPool(join(dataDir, 'store.sqlite'), 1);
  await pool.all(SHORT, []);
  await pool.close();
  const closed = pool;
  pool = undefined;
  await expect(closed.all(SHORT, [])).rejects.toThrow('the reader thread stopped');
  expect(closed.allIfFree(SHORT, [])).toBeUndefined();
});

test('a short read is not sent to a reader still starting: the caller reads it, and the reader starts', async () => {
  pool = createReaderPool(join(dataDir, 'store.sqlite'), 1);
  expect(pool.allIfFree(SHORT, [])).toBeUndefined();
  for (let tries = 0; pool.allIfFree(SHORT, []) === undefined; tries++) {
    if (tries > 100) throw new Error('the reader never started');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(await pool.allIfFree(SHORT, [])).toEqual([{ n: 2 }]);
});

test('a read of documents crosses parsed: every value as stored, a __proto__ key an own field, a missing document null', async () => {
  pool = createReaderPool(join(dataDir, 'store.sqlite'), 1);
  const stored = '{"__proto__":{"views":5},"title":"\\u0000é","n":-0,"big":1e308,"list":[null,true,{"a":[]}]}';
  const sql = "SELECT 1 AS k, ? AS doc UNION ALL SELECT 2, NULL UNION ALL SELECT 3, json('[1]')";
  const [first, missing, array] = await pool.all<{ k: number; doc: unknown }>(sql, [stored], {});
  expect(Object.hasOwn(first.doc as object, '__proto__')).toBe(true);
  // an Object.prototype (of the realm that received it, not jest's): the key did not become its prototype
  expect(Object.getPrototypeOf(Object.getPrototypeOf(first.doc))).toBeNull();
  expect((first.doc as { views?: number }).views).toBeUndefined();
  expect(first.doc).toEqual(JSON.parse(stored));
  expect(Object.is((first.doc as { n: number }).n, -0)).toBe(true);
  expect(missing).toEqual({ k: 2, doc: null });
  expect(array.doc).toEqual([1]);
  // without the flag the column comes back as the text it is
  expect(await pool.all<{ doc: unknown }>('SELECT ? AS doc', [stored])).toEqual([{ doc: stored }]);
});

test('a read of documents past its allowance is refused on the thread, before it crosses, with the tally', async () => {
  pool = createReaderPool(join(dataDir, 'store.sqlite'), 1);
  const allowance = createByteAllowance(25);
  const page = "SELECT 1 AS k, '{\"title\":\"0123456789\"}' AS doc";
  expect(await pool.all(page, [], { allowance })).toEqual([{ k: 1, doc: { title: '0123456789' } }]);
  expect(bytesSpent(allowance)).toBe(22);
  const refused = pool.all(page, [], { allowance });
  await expect(refused).rejects.toBeInstanceOf(AllowanceSpentError);
  await expect(refused).rejects.toMatchObject({ spent: 44, max: 25 });
});

describe('messages to a reader thread', () => {
  const sent = (spy: jest.SpyInstance): unknown[][] => spy.mock.calls.map(([requests]) => (requests as Array<{ sql?: string }>).map((request) => request.sql));

  test('short reads asked in one turn of the event loop cross in one message, answered each its own rows', async () => {
    pool = createReaderPool(join(dataDir, 'store.sqlite'), 1);
    await pool.all(SHORT, []);
    const spy = jest.spyOn(Worker.prototype, 'postMessage');
    try {
      const reads = [pool.allIfFree(SHORT, []), pool.allIfFree('SELECT title FROM notes WHERE k = ?', [2]), pool.allIfFree('SELECT title FROM notes WHERE k = ?', [1])];
      expect(await Promise.all(reads)).toEqual([[{ n: 2 }], [{ title: 'b' }], [{ title: 'a' }]]);
      expect(sent(spy)).toEqual([[SHORT, 'SELECT title FROM notes WHERE k = ?', 'SELECT title FROM notes WHERE k = ?']]);
    } finally {
      spy.mockRestore();
    }
  });

  test('a scan leaves at once, after the short reads asked before it, which do not wait to be answered with it', async () => {
    pool = createReaderPool(join(dataDir, 'store.sqlite'), 1);
    await pool.all(SHORT, []);
    const spy = jest.spyOn(Worker.prototype, 'postMessage');
    try {
      const reads = Promise.all([pool.allIfFree(SHORT, []), pool.all(SCAN, [])]);
      const messages = sent(spy);
      await reads;
      expect(messages).toEqual([[SHORT], [SCAN]]);
    } finally {
      spy.mockRestore();
    }
  });
});
