import { setTimeout as sleep } from 'node:timers/promises';
import type { EmbeddedDatabase } from './embedded-database';
import { commitWhenFlushed, joinGroup, leaveGroup } from './commit-group';
import { checkpointIfLarge, open, undone, type OpenTransaction, type StoreState } from './store-state';
import { mergeTextIndexes } from './text-merge-schedule';

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

/** `apply` inside the caller's open transaction, in a savepoint of it */
function inTransaction<T>(store: StoreState, apply: () => T): T {
  try {
    return store.database.sqlite.transaction(apply)();
  } catch (error) {
    return undone(store, error);
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
async function begin({ others }: StoreState, sqlite: EmbeddedDatabase['sqlite']): Promise<void> {
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

const SAVEPOINT = 'folio_write';

/**
 * `work` under the write lock, as a member of the open commit group (commit-group): in a savepoint of its
 * transaction, which it begins when none is open. Resolves once the group's commit is on disk; the lock is not
 * held meanwhile.
 */
async function committed<T>(store: StoreState, work: () => Promise<T>): Promise<T> {
  const { result, group } = await store.mutex.run(async () => {
    const sqlite = open(store).sqlite;
    const group = await joinGroup(store, () => begin(store, sqlite));
    sqlite.exec(`SAVEPOINT ${SAVEPOINT}`);
    try {
      const result = await work();
      sqlite.exec(`RELEASE ${SAVEPOINT}`);
      return { result, group };
    } catch (error) {
      leaveGroup(store, group, SAVEPOINT, error);
      return undone(store, error);
    } finally {
      commitWhenFlushed(store, group);
    }
  });
  await group.durable;
  checkpointIfLarge(store);
  mergeTextIndexes(store, () => store.database.textIndexesDue());
  return result;
}

export async function write<T>(store: StoreState, apply: () => T): Promise<T> {
  const joined = store.current.getStore();
  // a promise started inside a finished transaction still carries it in its async context
  if (joined && !joined.closed) {
    open(store);
    return inTransaction(store, apply);
  }
  return committed(store, async () => apply());
}

export function transaction<T>(store: StoreState, work: () => Promise<T>): Promise<T> {
  const { current } = store;
  const joined = current.getStore();
  if (joined && !joined.closed) return work();
  return committed(store, async () => {
    const transaction: OpenTransaction = { closed: false };
    try {
      return await current.run(transaction, work);
    } finally {
      transaction.closed = true;
      // While enabled, Node 20's AsyncLocalStorage runs a hook on every promise any request creates;
      // between transactions nothing reads it, so it is off (the next `run` turns it on again).
      current.disable();
    }
  });
}
