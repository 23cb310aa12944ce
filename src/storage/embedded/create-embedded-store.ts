import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { assertCollectionName } from '../collection-name';
import type { Collection, Store } from '../types';
import { createCollectionTable, type CollectionTable } from './collection-table';
import { createEmbeddedCollection, type EmbeddedStoreAccess } from './embedded-collection';
import { createMutex } from './create-mutex';
import { acquireDataDirLock } from './data-dir-lock';
import { openLmdbFiles, type LmdbFiles } from './lmdb-files';
import { SEQUENCES_COLLECTION, SEQUENCES_INDEX, assertSequenceName } from '../sequences';
import { matchingKeys } from './query-table';
import { createWriteBatch, type WriteBatch } from './write-batch';

/**
 * The embedded engine: durable in one LMDB file under `dataDir`, queried from an in-memory copy of each
 * collection (loaded on first use) with MongoDB semantics.
 *
 * Guarantees:
 * - a write resolves only after it is committed and fsynced: it survives a crash of the process or machine;
 * - writes are serialised; each operation is all-or-nothing (an insertMany that hits a unique violation
 *   inserts nothing);
 * - `transaction(work)` holds the write lock for the whole of `work`: its writes are persisted in one LMDB
 *   transaction when `work` resolves, or all undone when it throws. Other writers wait; readers are not
 *   blocked and may see the transaction's writes before it commits (read uncommitted). Nested calls join the
 *   outer transaction. `work` must not wait on a write made outside it (that write waits for `work`).
 * - one process per data directory (a `store.pid` lock file), since other processes' writes would not reach
 *   this process's in-memory copy.
 */
export function openEmbeddedStore(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true });
  const lock = acquireDataDirLock(dataDir);
  let files: LmdbFiles;
  try {
    files = openLmdbFiles(dataDir);
  } catch (error) {
    lock.release();
    throw error;
  }
  const tables = new Map<string, CollectionTable>();
  const collections = new Map<string, Collection>();
  const mutex = createMutex();
  const currentBatch = new AsyncLocalStorage<WriteBatch>();
  let closed = false;

  function assertOpen(): void {
    if (closed) throw new Error('the store is closed');
  }

  function table(name: string): CollectionTable {
    assertOpen();
    let loaded = tables.get(name);
    if (!loaded) {
      const { documents, indexes } = files.readCollection(name);
      loaded = createCollectionTable(name, documents, indexes);
      tables.set(name, loaded);
    }
    return loaded;
  }

  async function runBatch<T>(work: (batch: WriteBatch) => Promise<T>): Promise<T> {
    return mutex.run(async () => {
      assertOpen();
      const batch = createWriteBatch();
      try {
        const result = await currentBatch.run(batch, () => work(batch));
        // No more writes join it: a timer or promise the work started (a webhook worker nudged by the
        // write) still carries the batch in its async context, and what it wrote during the commit
        // would be in memory but not on disk. Such writes start a batch of their own.
        batch.closed = true;
        await files.commit(batch);
        return result;
      } catch (error) {
        batch.rollback();
        throw error;
      } finally {
        batch.closed = true;
        // While enabled, Node 20's AsyncLocalStorage runs a hook on every promise any request creates;
        // between batches nothing reads it, so it is off (the next batch's `run` turns it on again).
        currentBatch.disable();
      }
    });
  }

  const access: EmbeddedStoreAccess = {
    table,
    async write(apply) {
      const joined = currentBatch.getStore();
      // a promise started inside a finished transaction still carries it in its async context
      if (!joined || joined.closed) return runBatch(async (batch) => apply(batch));
      assertOpen();
      const mark = joined.mark();
      try {
        return apply(joined);
      } catch (error) {
        joined.rollback(mark);
        throw error;
      }
    },
  };

  function nextSequence(name: string): Promise<number> {
    assertSequenceName(name);
    return access.write((batch) => {
      const counters = table(SEQUENCES_COLLECTION);
      if (!counters.indexes.some((spec) => spec.name === SEQUENCES_INDEX.name)) batch.addIndex(counters, SEQUENCES_INDEX);
      const [key] = matchingKeys(counters, { name }, 1);
      const current = key === undefined ? 0 : Number(counters.documents.get(key)!.value);
      batch.put(counters, key ?? counters.allocateKey(), { name, value: current + 1 });
      return current + 1;
    });
  }

  return {
    engine: 'embedded',
    collection(name) {
      assertCollectionName(name);
      let collection = collections.get(name);
      if (!collection) {
        collection = createEmbeddedCollection(name, access);
        collections.set(name, collection);
      }
      return collection;
    },
    async listCollections() {
      assertOpen();
      // the in-memory copy, when loaded, is ahead of the disk during a transaction
      return files.catalogNames().filter((name) => {
        const loaded = tables.get(name);
        return loaded ? loaded.documents.size > 0 : files.hasDocuments(name);
      });
    },
    nextSequence,
    transaction(work) {
      const joined = currentBatch.getStore();
      if (joined && !joined.closed) return work();
      return runBatch(() => work());
    },
    async ping() {
      return !closed;
    },
    async close() {
      if (closed) return;
      // queued writes still complete; new ones are refused
      await mutex.run(async () => {
        closed = true;
      });
      await files.close();
      lock.release();
    },
  };
}
