import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ReadAnswer, ReadRequest } from './reader-worker';

/**
 * Reads that scan (a condition only the in-memory matcher or a RegExp can decide, over a whole collection) run
 * on reader threads, so that the main thread keeps answering every other request meanwhile.
 */
export interface ReaderPool {
  all<T>(sql: string, params: readonly unknown[]): Promise<T[]>;
  /** copies the WAL into the database file off the main thread (the writing connection never does: its autocheckpoint is off) */
  checkpoint(): void;
  /**
   * a full merge of the trigram index `table`, to run under the store's write lock, on a thread of its own:
   * on a reader it would wait behind the reads queued there, and every write behind it
   */
  mergeText(table: string): Promise<void>;
  close(): Promise<void>;
}

// From the TypeScript sources (the tests, scripts run through swc) the thread compiles what it loads as they do.
const COMPILE_TYPESCRIPT = `
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');
require.extensions['.ts'] = (module, filename) => module._compile(
  transformSync(readFileSync(filename, 'utf8'), { filename, module: { type: 'commonjs' }, jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }).code,
  filename,
);
`;

function workerSource(): string {
  const extension = extname(__filename);
  const entry = `require(${JSON.stringify(join(__dirname, `reader-worker${extension}`))});`;
  return extension === '.ts' ? `${COMPILE_TYPESCRIPT}${entry}` : entry;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

/** One reader thread, started on its first read; it keeps the process alive only while a read is pending. */
interface Reader {
  all<T>(sql: string, params: readonly unknown[]): Promise<T[]>;
  mergeText(table: string): Promise<void>;
  pending(): number;
  close(): Promise<void>;
}

function createReader(file: string): Reader {
  let worker: Worker | undefined;
  const pending = new Map<number, Pending>();
  let nextId = 1;

  function failAll(error: Error): void {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
    worker = undefined;
  }

  function started(): Worker {
    if (worker) return worker;
    const thread = new Worker(workerSource(), { eval: true, workerData: { file } });
    thread.on('message', (answer: ReadAnswer) => {
      const waiting = pending.get(answer.id);
      pending.delete(answer.id);
      if (pending.size === 0) thread.unref();
      if (!waiting) return;
      if ('rows' in answer) waiting.resolve(answer.rows);
      else waiting.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    });
    thread.on('error', failAll);
    thread.on('exit', () => failAll(new Error('the reader thread stopped')));
    return (worker = thread);
  }

  function ask<T>(request: DistributiveOmit<ReadRequest, 'id'>): Promise<T[]> {
    const thread = started();
    const id = nextId++;
    thread.ref();
    return new Promise<T[]>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      thread.postMessage({ ...request, id } satisfies ReadRequest);
    });
  }

  return {
    all: <T>(sql: string, params: readonly unknown[]) => ask<T>({ sql, params: [...params] }),
    mergeText: async (table) => {
      await ask({ mergeText: table });
    },
    pending: () => pending.size,
    async close() {
      const thread = worker;
      worker = undefined;
      if (!thread) return;
      // Node does not hold the process open for a terminating thread: with nothing else pending, the process
      // exited before terminate() settled, leaving the caller's await unsettled (`folio check` printed nothing
      // and exited 0). A timer holds it until the thread has ended.
      const holdOpen = setInterval(() => undefined, 60_000);
      try {
        await thread.terminate();
      } finally {
        clearInterval(holdOpen);
      }
    },
  };
}

/**
 * `size` reader threads, each read given to the one with the fewest pending. With one thread, scans queued
 * behind each other on one core while the main thread, mostly waiting for them, left the other idle.
 */
export function createReaderPool(file: string, size: number): ReaderPool {
  const readers = Array.from({ length: Math.max(1, size) }, () => createReader(file));
  // started on the first merge
  const maintenance = createReader(file);
  let checkpointing = false;
  const leastBusy = (): Reader => readers.reduce((best, reader) => (reader.pending() < best.pending() ? reader : best));
  return {
    all: (sql, params) => leastBusy().all(sql, params),
    mergeText: (table) => maintenance.mergeText(table),
    checkpoint() {
      if (checkpointing) return;
      checkpointing = true;
      leastBusy()
        .all('PRAGMA wal_checkpoint(PASSIVE)', [])
        // a checkpoint that fails (the store closing) is taken again after the next writes
        .catch(() => undefined)
        .finally(() => {
          checkpointing = false;
        });
    },
    async close() {
      await Promise.all([...readers, maintenance].map((reader) => reader.close()));
    },
  };
}
