import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DataDirLock {
  release(): void;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One process at a time per data directory: the embedded engine answers queries from an in-memory copy that
 * another process's writes would silently make stale. A lock left by a killed process is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const path = join(dataDir, 'store.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const descriptor = openSync(path, 'wx');
      writeSync(descriptor, String(process.pid));
      closeSync(descriptor);
      return {
        release() {
          try {
            if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
          } catch {
            // already gone: nothing to release
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8'));
      // an empty file is a lock being written by its new owner right now
      if (!(Number.isInteger(holder) && holder > 0) || isRunning(holder)) {
        const who = holder === process.pid ? 'this process' : `process ${holder || '(starting)'}`;
        throw new Error(`data directory ${dataDir} is already open by ${who}; stop it first (lock file ${path})`);
      }
      unlinkSync(path);
    }
  }
  throw new Error(`could not lock data directory ${dataDir} (lock file ${path})`);
}

/**
 * The lock held by `holder`, a worker group's first process, for this one among its workers: they share the
 * directory. Nothing to release: the holder releases it once its workers have stopped.
 */
export function joinDataDirLock(dataDir: string, holder: number): DataDirLock {
  const path = join(dataDir, 'store.pid');
  let found: string;
  try {
    found = readFileSync(path, 'utf8');
  } catch {
    found = '';
  }
  if (found !== String(holder)) throw new Error(`data directory ${dataDir} is not locked by process ${holder}, which started this worker (lock file ${path})`);
  return { release: () => undefined };
}
