import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { assertCollectionName } from '../collection-name';
import type { Collection, Store, StoredDocument } from '../types';
import { createEmbeddedCollection, type EmbeddedStoreAccess } from './embedded-collection';
import { commitGroupNow } from './commit-group';
import { createMutex } from './create-mutex';
import { acquireDataDirLock, joinDataDirLock, type DataDirLock } from './data-dir-lock';
import { openEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database';
import { migrateLmdbStore } from './migrate-lmdb-store';
import { createReaderPool } from './reader-pool';
import { createWalSync } from './wal-sync';
import { watchOtherWriters } from './other-writers';
import { SEQUENCES_COLLECTION, SEQUENCES_INDEX, assertSequenceName } from '../sequences';
import { storeAccess } from './store-access';
import { open, type OpenTransaction, type StoreState } from './store-state';
import { mergeTextIndexes } from './text-merge-schedule';
import { transaction } from './write-lock';

/** how long after opening an index left fragmented starts to be merged */
const MERGE_AFTER_OPEN_MS = 2000;

/**
 * A small collection read this many times since its last commit is worth holding in memory: reading all its rows
 * costs about as much as that many reads of a few, and a collection written between most reads is left to SQL.
 */
const HOLD_AFTER_READS = 8;

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
  /**
   * reads of a small collection since its last commit after which its rows are held in memory and answer
   * its reads (read-held); Infinity: never. @default HOLD_AFTER_READS
   */
  holdAfterReads?: number;
}

function lockAndOpen(dataDir: string, lockHolder: number | undefined): { lock: DataDirLock; database: EmbeddedDatabase } {
  mkdirSync(dataDir, { recursive: true });
  const lock = lockHolder === undefined ? acquireDataDirLock(dataDir) : joinDataDirLock(dataDir, lockHolder);
  try {
    const database = openEmbeddedDatabase(join(dataDir, 'store.sqlite'), { logsWrites: lockHolder !== undefined });
    migrateLmdbStore(dataDir, database);
    database.committed();
    return { lock, database };
  } catch (error) {
    lock.release();
    throw error;
  }
}

function nextSequence({ database }: StoreState, access: EmbeddedStoreAccess, name: string): Promise<number> {
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
}

async function close(store: StoreState, lock: DataDirLock): Promise<void> {
  if (store.closed) return;
  // queued writes still complete; new ones are refused
  await store.mutex.run(async () => {
    commitGroupNow(store);
    store.closed = true;
  });
  await store.readers.close();
  await store.wal.close();
  store.database.close();
  lock.release();
}

export function openEmbeddedStore(dataDir: string, { lockHolder, workers = 1, holdAfterReads = HOLD_AFTER_READS }: EmbeddedStoreOptions = {}): Store {
  const { lock, database } = lockAndOpen(dataDir, lockHolder);
  // as many readers as cores (the group's workers share them), the main thread mostly waiting while they scan;
  // at most MAX_READERS, each being an engine and a page cache of its own (~30 MB) that one main thread could
  // not keep busy
  const readerCount = Math.max(1, Math.min(Math.ceil(availableParallelism() / workers), MAX_READERS));
  const readers = createReaderPool(join(dataDir, 'store.sqlite'), readerCount);
  const others = lockHolder === undefined ? undefined : watchOtherWriters(database.sqlite, () => database.reload());
  const store: StoreState = {
    database,
    readers,
    others,
    wal: createWalSync(join(dataDir, 'store.sqlite-wal')),
    mutex: createMutex(),
    current: new AsyncLocalStorage<OpenTransaction>(),
    group: undefined,
    closed: false,
    toMerge: new Set(),
    merging: false,
  };
  const collections = new Map<string, Collection>();

  // once start-up's own writes are done: each would wait for a step
  setTimeout(() => mergeTextIndexes(store, () => database.fragmentedTextIndexes()), MERGE_AFTER_OPEN_MS).unref();

  const access = storeAccess(store, holdAfterReads);

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
      return open(store)
        .catalogNames()
        .filter((name) => access.statementHere(`SELECT 1 FROM "c:${name}" LIMIT 1`).get() !== undefined);
    },
    async nextSequence(name) {
      assertSequenceName(name);
      return nextSequence(store, access, name);
    },
    transaction: (work) => transaction(store, work),
    async ping() {
      return !store.closed;
    },
    ...(others && {
      othersCommitted() {
        open(store);
        return others.seen();
      },
    }),
    close: () => close(store, lock),
  };
}
