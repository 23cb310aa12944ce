import type { AsyncLocalStorage } from 'node:async_hooks';
import type { EmbeddedDatabase } from './embedded-database';
import type { Mutex } from './create-mutex';
import type { OtherWriters } from './other-writers';
import type { ReaderPool } from './reader-pool';
import type { WalSync } from './wal-sync';

/** WAL size past which its frames are copied into the database file (SQLite's own default, 1,000 pages) */
const CHECKPOINT_BYTES = 4 * 1024 * 1024;

export interface OpenTransaction {
  /** set once committed or rolled back: work it started later must not join it */
  closed: boolean;
}

/** Writes waiting in one open transaction for their commit (commit-group). */
export interface CommitGroup {
  /** settles once the group's transaction is committed and on disk */
  readonly durable: Promise<void>;
  /** whether its commit was asked for (now, or once the running flush ends) */
  scheduled: boolean;
  succeed(): void;
  fail(error: unknown): void;
}

/** What the parts of the embedded store (create-embedded-store) share: its database, threads, write lock and open transaction. */
export interface StoreState {
  readonly database: EmbeddedDatabase;
  readonly readers: ReaderPool;
  /** the other processes of the worker group, when this one is among its workers */
  readonly others: OtherWriters | undefined;
  readonly wal: WalSync;
  readonly mutex: Mutex;
  readonly current: AsyncLocalStorage<OpenTransaction>;
  /** the writes waiting in an open transaction for their commit (commit-group) */
  group: CommitGroup | undefined;
  closed: boolean;
  /** the trigram indexes waiting for a full merge (text-merge-schedule) */
  readonly toMerge: Set<string>;
  merging: boolean;
}

export function open(store: StoreState): EmbeddedDatabase {
  if (store.closed) throw new Error('the store is closed');
  // inside this process's open transaction no other process can have committed: it holds the write lock
  if (store.others && !store.database.sqlite.inTransaction) store.others.follow();
  return store.database;
}

// a failed statement or transaction may have undone catalog changes the process already holds
export function undone(store: StoreState, error: unknown): never {
  store.database.reload();
  throw error;
}

export const callerInTransaction = (store: StoreState): boolean => {
  const joined = store.current.getStore();
  return joined !== undefined && !joined.closed;
};

export function checkpointIfLarge(store: StoreState): void {
  if (store.wal.size() > CHECKPOINT_BYTES) store.readers.checkpoint();
}
