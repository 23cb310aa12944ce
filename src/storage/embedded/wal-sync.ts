import { statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * Durability without blocking: SQLite commits with `synchronous = NORMAL` (the WAL frames are written, not
 * flushed) and a write is acknowledged only after the WAL file is flushed here, on libuv's thread pool. A
 * commit made while a flush runs waits for the next one, which covers every commit made before it starts, so
 * concurrent writers share flushes.
 */
export interface WalSync {
  /** resolves once everything committed before the call is on disk */
  flushed(): Promise<void>;
  /** the flush running or asked for, if any: settles when it ends */
  flushing(): Promise<void> | undefined;
  /** the WAL file's size in bytes */
  size(): number;
  close(): Promise<void>;
}

export function createWalSync(walFile: string): WalSync {
  let handle: FileHandle | undefined;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;

  async function flush(): Promise<void> {
    handle ??= await open(walFile, 'r');
    await handle.sync();
  }

  function start(): Promise<void> {
    running = flush().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    flushed() {
      if (!running) return start();
      next ??= running.then(
        () => {
          next = undefined;
          return start();
        },
        () => {
          next = undefined;
          return start();
        },
      );
      return next;
    },
    flushing: () => next ?? running,
    size() {
      try {
        return statSync(walFile).size;
      } catch {
        return 0;
      }
    },
    async close() {
      await running?.catch(() => undefined);
      await next?.catch(() => undefined);
      await handle?.close();
      handle = undefined;
    },
  };
}
