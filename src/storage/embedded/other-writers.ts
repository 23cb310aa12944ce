import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';

/**
 * Commits other processes make to the file (the workers of one `folio start`), told by SQLite's
 * `PRAGMA data_version`, which moves when another connection has committed. What this process keeps of
 * the file (catalog, the last value of ascending fields; remembered totals and held rows of the collections
 * written since) is then read again: `reload`.
 *
 * Asked once per turn of the microtask queue at most: the pragma takes a read lock of the WAL index
 * (7 µs, as long as a small read), and a request makes several store calls in one turn. That loses nothing:
 * a request sent after another process acknowledged a write arrives in a later I/O callback, after the
 * microtasks of the turn that looked.
 */
export interface OtherWriters {
  /** outside a transaction: reloads when another process committed since the last look; at most once per microtask turn */
  follow(): void;
  /** the same, looking whenever asked */
  followNow(): void;
  /**
   * whether another process committed since the last look: asked once this process holds the write lock, when
   * what it keeps must be the file's (the reload itself runs outside a transaction, see collection-catalog's loadCatalog)
   */
  behind(): boolean;
  /** how many looks found another process's commit: moves whenever what this process keeps was read again */
  seen(): number;
}

export function watchOtherWriters(sqlite: SqliteDatabase, reload: () => void): OtherWriters {
  const dataVersion: Statement = sqlite.prepare('PRAGMA data_version').pluck();
  let version = dataVersion.get() as number;
  let seen = 0;
  let looked = false;
  const followNow = (): void => {
    const now = dataVersion.get() as number;
    if (now === version) return;
    version = now;
    seen += 1;
    reload();
  };
  return {
    follow() {
      if (looked) return;
      looked = true;
      queueMicrotask(() => {
        looked = false;
      });
      followNow();
    },
    followNow,
    behind: () => dataVersion.get() !== version,
    seen: () => seen,
  };
}
