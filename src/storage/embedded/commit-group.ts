import type { CommitGroup, StoreState } from './store-state';

/**
 * Group commit. A write is acknowledged once its commit is flushed (wal-sync), and a commit made while a flush
 * runs waits for the next one anyway: so while one runs, the writes that arrive go into one open transaction
 * (each in a savepoint of its own), committed together as soon as the flush ends. Every commit rewrites whole
 * pages of every index it touched: at 50,000 articles one insert alone wrote 129 KB of WAL, one of ten in a
 * transaction 33 KB, and the flushes that acknowledge writes took in proportion.
 */
function createCommitGroup(): CommitGroup {
  let succeed!: () => void;
  let fail!: (error: unknown) => void;
  const durable = new Promise<void>((resolve, reject) => {
    succeed = resolve;
    fail = reject;
  });
  // a group whose members all failed has no one awaiting it
  durable.catch(() => undefined);
  return { durable, scheduled: false, succeed, fail };
}

/** the open group, or a new one once `begin` has opened its transaction */
export async function joinGroup(store: StoreState, begin: () => Promise<void>): Promise<CommitGroup> {
  if (store.group) return store.group;
  await begin();
  return (store.group = createCommitGroup());
}

/** commits the open group now, if there is one; its members are told once the flush that follows ends */
export function commitGroupNow(store: StoreState): void {
  const group = store.group;
  if (!group) return;
  store.group = undefined;
  const { database } = store;
  try {
    database.sqlite.exec('COMMIT');
  } catch (error) {
    try {
      if (database.sqlite.inTransaction) database.sqlite.exec('ROLLBACK');
      database.reload();
    } finally {
      // its members are told whatever the undoing does
      group.fail(error);
    }
    return;
  }
  database.committed();
  store.wal.flushed().then(group.succeed, group.fail);
}

/**
 * A member is done with `group`: it commits now when no flush is running, else once that flush ends (under the
 * write lock, after the members already waiting for it). A group whose transaction changed the catalog commits
 * now: until then, reads outside it see its writes (store-access), and they must not wait for a flush. So does
 * every group of a worker in a group of processes: the others wait for SQLite's write lock by trying it again
 * after a pause (write-lock), and a transaction held open through each flush would hold it almost always.
 */
export function commitWhenFlushed(store: StoreState, group: CommitGroup): void {
  if (group.scheduled || store.group !== group) return;
  const flushing = store.wal.flushing();
  if (!flushing || store.others || store.database.catalogAhead()) return commitGroupNow(store);
  group.scheduled = true;
  const commit = () =>
    void store.mutex
      .run(async () => {
        if (store.group === group) commitGroupNow(store);
      })
      // the members already have the commit's own error; nobody awaits this job
      .catch(() => undefined);
  flushing.then(commit, commit);
}

/**
 * A member failed: its savepoint is undone and the group goes on. Some failures (a full disk, an I/O error) make
 * SQLite undo the whole transaction: then every member of the group fails with it.
 */
export function leaveGroup(store: StoreState, group: CommitGroup, savepoint: string, error: unknown): void {
  const { sqlite } = store.database;
  if (sqlite.inTransaction) {
    sqlite.exec(`ROLLBACK TO ${savepoint}`);
    sqlite.exec(`RELEASE ${savepoint}`);
    return;
  }
  if (store.group === group) store.group = undefined;
  group.fail(error);
}
