import { acquireDataDirLock, type DataDirLock } from '../../src/storage/embedded/data-dir-lock';
import type { Store } from '../../src/storage/types';

/**
 * Inside a `describe`: the data folder's lock held as a worker group's primary holds it, so that stores opened
 * with `lockHolder: process.pid` join it as workers do. `opened` are closed before the lock is released.
 */
export function holdFolderLockAsPrimary(folder: () => string, opened: Store[]): void {
  let lock: DataDirLock;
  beforeEach(() => {
    lock = acquireDataDirLock(folder());
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    lock.release();
  });
}
