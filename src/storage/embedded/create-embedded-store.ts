import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertCollectionName } from '../collection-name';
import type { Collection, Store, StoredDocument } from '../types';
import { createEmbeddedCollection, type EmbeddedStoreAccess } from './embedded-collection';
import { createMutex } from './create-mutex';
import { acquireDataDirLock, joinDataDirLock } from './data-dir-lock';
import { openEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database';
import { migrateLmdbStore } from './migrate-lmdb-store';
import { createReaderPool } from './reader-pool';
import { createWalSync } from './wal-sync';
import { watchOtherWriters } from './other-writers';
import { SEQUENCES_COLLECTION, SEQUENCES_INDEX, assertSequenceName } from '../sequences';

/** WAL size past which its frames are copied into the database file (SQLite's own default, 1,000 pages) */
const CHECKPOINT_BYTES = 4 * 1024 * 1024;

interface OpenTransaction {
  /** set once committed or rolled back: work it started later must not join it */
  closed: boolean;
}

/** how long after opening an index left fragmented starts to be merged */
const MERGE_AFTER_OPEN_MS = 2000;

/** reader threads on a machine with many cores */
const MAX_READERS = 8;

/**
 * The embedded engine: one SQLite file, `<dataDir>/store.sqlite`, read through SQLite's page cache (nothing is
 * loaded at start) with MongoDB semantics (see compile-filter).
 *
 * Guarantees:
 * - a write resolves only after it is committed and synced: it survives a crash of the process or machine;
 * - writes are serialised; each operation is all-or-nothing (an insertMany that hits a unique violation
 *   inserts nothing);
 * - `transaction(work)` holds the write lock for the whole of `work`: its writes commit together when `work`
 *   resolves, or are all undone when it throws. Other writers wait; reads outside it are not blocked and see
 *   the last commit (on the reader threads), not its writes, except while it has changed the catalog (a new
 *   collection, a field's first array: then they read what it wrote). Nested calls join the outer transaction.
 *   `work` must not wait on a write made outside it (that write waits for `work`).
 * - one process per data directory (a `store.pid` lock file), or the workers of the process holding it
 *   (`lockHolder`), which write to the file in turn (SQLite's write lock) and read what the others commit:
 *   before it answers from what it keeps (catalog, remembered totals), a process reads that again when another
 *   one has committed (other-writers).
 */

export interface EmbeddedStoreOptions {
  /** the process holding the data directory's lock (`store.pid`), when this one is among its workers */
  lockHolder?: number;
  /** processes of the group sharing the machine's cores, each with reader threads of its own. @default 1 */
  workers?: number;
}

/** the longest pause between two tries of SQLite's write lock while another process of the group holds it */
const MAX_LOCK_PAUSE_MS = 16;

/** `BEGIN IMMEDIATE` if SQLite's write lock is free now: false, without waiting, when another process holds it */
function tryBeginImmediate(sqlite: EmbeddedDatabase['sqlite']): boolean {
  const patience = sqlite.pragma('busy_timeout', { simple: true }) as number;
  sqlite.pragma('busy_timeout = 0');
  try {
    sqlite.exec('BEGIN IMMEDIATE');
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return false;
    throw error;
  } finally {
    sqlite.pragma(`busy_timeout = ${patience}`);
  }
}

export function openEmbeddedStore(dataDir: string, { lockHolder, workers = 1 }: EmbeddedStoreOptions = {}): Store {
  mkdirSync(dataDir, { recursive: true });
  const lock = lockHolder === undefined ? acquireDataDirLock(dataDir) : joinDataDirLock(dataDir, lockHolder);
  let database: EmbeddedDatabase;
  try {
    database = openEmbeddedDatabase(join(dataDir, 'store.sqlite'));
    migrateLmdbStore(dataDir, database);
    database.committed();
  } catch (error) {
    lock.release();
    throw error;
  }
  // as many readers as cores (the group's workers share them), the main thread mostly waiting while they scan;
  // at most MAX_READERS, each being an engine and a page cache of its own (~30 MB) that one main thread could
  // not keep busy
  const readerCount = Math.max(1, Math.min(Math.ceil(availableParallelism() / workers), MAX_READERS));
  const readers = createReaderPool(join(dataDir, 'store.sqlite'), readerCount);
  const others = lockHolder === undefined ? undefined : watchOtherWriters(database.sqlite, () => database.reload());
  const wal = createWalSync(join(dataDir, 'store.sqlite-wal'));
  const collections = new Map<string, Collection>();
  const mutex = createMutex();
  const current = new AsyncLocalStorage<OpenTransaction>();
  let closed = false;

  function open(): EmbeddedDatabase {
    if (closed) throw new Error('the store is closed');
    // inside this process's open transaction no other process can have committed: it holds the write lock
    if (others && !database.sqlite.inTransaction) others.follow();
    return database;
  }

  // a failed statement or transaction may have undone catalog changes the process already holds
  function undone(error: unknown): never {
    database.reload();
    throw error;
  }

  /**
   * `apply` in a transaction of this process alone (a savepoint inside an open one); a worker group's writes
   * take SQLite's write lock first (begin), then come here inside that transaction.
   */
  function inTransaction<T>(apply: () => T): T {
    try {
      const result = database.sqlite.transaction(apply)();
      // inside an open transaction this was a savepoint: the commit is still to come
      if (!database.sqlite.inTransaction) database.committed();
      return result;
    } catch (error) {
      return undone(error);
    }
  }

  /**
   * `BEGIN IMMEDIATE`, once this process holds what the last commit of every process holds: when another process
   * committed since this one last looked, the catalog and totals are read again first, outside the transaction,
   * and a transaction begun before such a commit is given up for another (what `work` read must be the file's).
   * In a worker group another process may hold SQLite's write lock (a text index's merge holds it 0.9 s at
   * 200,000 articles): SQLite's busy handler would wait for it on this thread, and every request of this worker
   * with it. The lock is tried without waiting, and tried again after a pause that lets the event loop run.
   */
  async function begin(sqlite: EmbeddedDatabase['sqlite']): Promise<void> {
    if (!others) return void sqlite.exec('BEGIN IMMEDIATE');
    for (let pause = 1; ; pause = Math.min(pause * 2, MAX_LOCK_PAUSE_MS)) {
      others.followNow();
      if (!tryBeginImmediate(sqlite)) {
        await sleep(pause);
        continue;
      }
      if (!others.behind()) return;
      sqlite.exec('ROLLBACK');
    }
  }

  /** `work` under the write lock; resolves once its commit is on disk (the lock is not held meanwhile) */
  async function committed<T>(work: () => Promise<T>): Promise<T> {
    const result = await mutex.run(work);
    await wal.flushed();
    checkpointIfLarge();
    mergeTextIndexes(() => database.textIndexesDue());
    return result;
  }

  function checkpointIfLarge(): void {
    if (wal.size() > CHECKPOINT_BYTES) readers.checkpoint();
  }

  /**
   * Full merges of the trigram indexes `find` names (text-index-merges), one at a time, on a thread of their own,
   * each under the write lock: writes wait for it (0.9 s at 200,000 articles, rarely), reads never.
   */
  const toMerge = new Set<string>();
  let merging = false;
  function mergeTextIndexes(find: () => string[]): void {
    if (closed) return;
    try {
      for (const table of find()) toMerge.add(table);
    } catch {
      // a merge is an optimisation: a write that committed must not report a failure of it
      return;
    }
    if (merging || toMerge.size === 0) return;
    merging = true;
    void (async () => {
      for (const table of toMerge) {
        toMerge.delete(table);
        await mutex.run(async () => {
          if (!closed) await readers.mergeText(table);
        });
        checkpointIfLarge();
      }
    })()
      // a merge is an optimisation: one that fails (the store closing) leaves a correct index
      .catch(() => undefined)
      .finally(() => {
        merging = false;
        mergeTextIndexes(() => []);
      });
  }

  // once start-up's own writes are done: each would wait for a step
  setTimeout(() => mergeTextIndexes(() => database.fragmentedTextIndexes()), MERGE_AFTER_OPEN_MS).unref();

  const callerInTransaction = (): boolean => {
    const joined = current.getStore();
    return joined !== undefined && !joined.closed;
  };

  const access: EmbeddedStoreAccess = {
    database: open,
    readers: () => readers,
    inTransaction: callerInTransaction,
    readersSeeCatalog: () => !callerInTransaction() && !database.catalogAhead(),
    statementHere(sql) {
      const opened = open();
      return opened.sqlite.inTransaction && access.readersSeeCatalog() ? opened.committedStatement(sql) : opened.statement(sql);
    },
    async write(apply) {
      const joined = current.getStore();
      // a promise started inside a finished transaction still carries it in its async context
      if (joined && !joined.closed) {
        open();
        return inTransaction(apply);
      }
      return committed(async () => {
        const sqlite = open().sqlite;
        if (!others) return inTransaction(apply);
        // the write lock taken first (see begin); `apply` then runs in a savepoint of that transaction
        await begin(sqlite);
        try {
          const result = sqlite.transaction(apply)();
          sqlite.exec('COMMIT');
          database.committed();
          return result;
        } catch (error) {
          if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
          return undone(error);
        }
      });
    },
  };

  function collection(name: string): Collection {
    assertCollectionName(name);
    let found = collections.get(name);
    if (!found) collections.set(name, (found = createEmbeddedCollection(name, access)));
    return found;
  }

  return {
    engine: 'embedded',
    collection,
    async listCollections() {
      // outside another caller's open transaction the last commit, as the collections' reads (export-store reads both)
      return open()
        .catalogNames()
        .filter((name) => access.statementHere(`SELECT 1 FROM "c:${name}" LIMIT 1`).get() !== undefined);
    },
    async nextSequence(name) {
      assertSequenceName(name);
      return access.write(() => {
        const state = database.state(SEQUENCES_COLLECTION);
        if (!state.indexes.some((spec) => spec.name === SEQUENCES_INDEX.name)) database.addIndex(state, SEQUENCES_INDEX);
        const row = database.statement(`SELECT k, json(doc) AS doc FROM "c:${SEQUENCES_COLLECTION}" WHERE json_extract(doc, '$."name"') = ?`).get(name) as
          | { k: number; doc: string }
          | undefined;
        if (!row) {
          database.insert(state, { name, value: 1 });
          return 1;
        }
        const previous = JSON.parse(row.doc) as StoredDocument;
        const value = Number(previous.value) + 1;
        database.replace(state, row.k, { name, value }, previous);
        return value;
      });
    },
    transaction(work) {
      const joined = current.getStore();
      if (joined && !joined.closed) return work();
      return committed(async () => {
        const sqlite = open().sqlite;
        const transaction: OpenTransaction = { closed: false };
        await begin(sqlite);
        try {
          const result = await current.run(transaction, work);
          transaction.closed = true;
          sqlite.exec('COMMIT');
          database.committed();
          return result;
        } catch (error) {
          transaction.closed = true;
          if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
          return undone(error);
        } finally {
          // While enabled, Node 20's AsyncLocalStorage runs a hook on every promise any request creates;
          // between transactions nothing reads it, so it is off (the next `run` turns it on again).
          current.disable();
        }
      });
    },
    async ping() {
      return !closed;
    },
    ...(others && {
      othersCommitted() {
        open();
        return others.seen();
      },
    }),
    async close() {
      if (closed) return;
      // queued writes still complete; new ones are refused
      await mutex.run(async () => {
        closed = true;
      });
      await readers.close();
      await wal.close();
      database.close();
      lock.release();
    },
  };
}
