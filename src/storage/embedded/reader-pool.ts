import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { AllowanceSpentError, bytesSpent } from '../byte-allowance';
import { parseDocumentColumn, type DocumentColumn } from './document-column';
import type { ReadAnswer, ReaderReady, ReadRequest } from './reader-worker';

/**
 * Reads that scan (a condition only the in-memory matcher or a RegExp can decide, over a whole collection) run
 * on reader threads, so that the main thread keeps answering every other request meanwhile. So do short reads
 * while a thread is free of scans: the main thread, the one that parses requests, runs GraphQL and writes
 * answers, is the first to run out of time, and a read handed over costs it less than the read itself (a
 * get-one by documentId at 200,000 articles, without writes, answered 7,700–8,500 req/s reading on the main
 * thread and 10,100–11,200 handing its reads over, three runs each).
 */
export interface ReaderPool {
  /**
   * a read that scans: on the reader with the fewest reads pending. `documents`: the rows' `doc` column holds
   * documents' JSON text, counted on the thread and answered parsed (there when the page is large, else here:
   * document-column)
   */
  all<T>(sql: string, params: readonly unknown[], documents?: DocumentColumn): Promise<T[]>;
  /**
   * a short read, on a running reader with no scan pending (queued behind one, or behind a thread's start, it
   * would wait for it); undefined when there is none, for the caller to read itself (such readers are started)
   */
  allIfFree<T>(sql: string, params: readonly unknown[], documents?: DocumentColumn): Promise<T[]> | undefined;
  /** copies the WAL into the database file off the main thread (the writing connection never does: its autocheckpoint is off) */
  checkpoint(): void;
  /**
   * a full merge of the trigram index `table`, to run under the store's write lock, on a thread of its own:
   * on a reader it would wait behind the reads queued there, and every write behind it
   */
  mergeText(table: string): Promise<void>;
  close(): Promise<void>;
}

// From the TypeScript sources (the tests, scripts run through swc) the thread compiles what it loads as they do,
// keeping what it compiled where test/support/register-ts.js does (same name for the same compiler, options,
// path and text): every store a test opens starts its reader threads, and loading swc and compiling their
// modules again in each cost ~0.2 s a store, most of a short storage test.
const COMPILE_TYPESCRIPT = `
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { join } = require('node:path');
const OPTIONS = { sourceMaps: 'inline', module: { type: 'commonjs' }, jsc: { target: 'es2022', parser: { syntax: 'typescript' } } };
const CACHE = join(require('node:os').tmpdir(), 'folio-register-ts-' + (process.getuid?.() ?? 'user'));
const SALT = require('@swc/core/package.json').version + '\\0' + JSON.stringify(OPTIONS);
require.extensions['.ts'] = (module, filename) => {
  const source = readFileSync(filename, 'utf8');
  const cached = join(CACHE, createHash('sha1').update(SALT).update('\\0' + filename + '\\0').update(source).digest('hex') + '.js');
  let code;
  try {
    code = readFileSync(cached, 'utf8');
  } catch {
    code = require('@swc/core').transformSync(source, { filename, ...OPTIONS }).code;
    try {
      mkdirSync(CACHE, { recursive: true });
      // written whole under a name of its own, then renamed: a thread reading it at the same time sees all or nothing
      const partial = cached + '.' + process.pid + '.' + require('node:worker_threads').threadId;
      writeFileSync(partial, code);
      renameSync(partial, cached);
    } catch {
      // a cache that cannot be written: compiled again next time
    }
  }
  module._compile(code, filename);
};
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
  scans: boolean;
  documents: DocumentColumn | undefined;
}

/** One reader thread, started on its first read; it keeps the process alive only while a read is pending. */
interface Reader {
  all<T>(sql: string, params: readonly unknown[], scans: boolean, documents: DocumentColumn | undefined): Promise<T[]>;
  mergeText(table: string): Promise<void>;
  pending(): number;
  /** the scans among the pending reads */
  scansPending(): number;
  /** whether its thread has started and opened its connection */
  ready(): boolean;
  /** starts its thread, if it has none */
  warm(): void;
  close(): Promise<void>;
}

function createReader(file: string): Reader {
  let worker: Worker | undefined;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let scans = 0;
  let ready = false;
  // once closed, a read is refused: started again, the thread would outlive the store
  let closed = false;

  function settled(id: number): Pending | undefined {
    const waiting = pending.get(id);
    pending.delete(id);
    if (waiting?.scans) scans--;
    return waiting;
  }

  function failAll(error: Error): void {
    for (const id of [...pending.keys()]) settled(id)!.reject(error);
    worker = undefined;
    ready = false;
  }

  function answered(answer: ReadAnswer): void {
    const waiting = settled(answer.id);
    if (!waiting) return;
    const allowance = waiting.documents?.allowance;
    if ('rows' in answer) {
      // a small page crosses as text (document-column)
      if (waiting.documents) parseDocumentColumn(answer.rows);
      waiting.resolve(answer.rows);
    } else if (allowance && answer.error.code === AllowanceSpentError.code) waiting.reject(new AllowanceSpentError(bytesSpent(allowance), allowance.max));
    else waiting.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
  }

  function started(): Worker {
    if (worker) return worker;
    const thread = new Worker(workerSource(), { eval: true, workerData: { file } });
    thread.on('message', (message: ReadAnswer[] | ReaderReady) => {
      if ('ready' in message) ready = true;
      else for (const answer of message) answered(answer);
      if (pending.size === 0) thread.unref();
    });
    thread.on('error', failAll);
    thread.on('exit', () => failAll(new Error('the reader thread stopped')));
    return (worker = thread);
  }

  // Short reads asked in one turn of the event loop leave in one message, sent once the turn's callbacks have
  // run (setImmediate): under load each request's page and its relations' reads were a message each, and
  // posting them was a tenth of the main thread's busy time in a profile (docs/speed.md has what batching
  // them measured: 8-19 reads a message, throughput within the noise).
  let outbox: ReadRequest[] = [];
  const send = (): void => {
    const requests = outbox;
    outbox = [];
    if (requests.length > 0) worker?.postMessage(requests);
  };

  function ask<T>(request: DistributiveOmit<ReadRequest, 'id'>, scanning: boolean, documents?: DocumentColumn): Promise<T[]> {
    if (closed) return Promise.reject(new Error('the reader thread stopped'));
    const thread = started();
    const id = nextId++;
    thread.ref();
    if (scanning) scans++;
    return new Promise<T[]>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject, scans: scanning, documents });
      const message = { ...request, id } satisfies ReadRequest;
      if (scanning) {
        // at once, after the short reads asked before it, apart: with it, they would be answered when it ends
        send();
        thread.postMessage([message]);
      } else {
        if (outbox.length === 0) setImmediate(send);
        outbox.push(message);
      }
    });
  }

  return {
    all: <T>(sql: string, params: readonly unknown[], scanning: boolean, documents: DocumentColumn | undefined) => ask<T>({ sql, params: [...params], documents }, scanning, documents),
    mergeText: async (table) => {
      await ask({ mergeText: table }, true);
    },
    pending: () => pending.size,
    scansPending: () => scans,
    ready: () => ready,
    warm() {
      if (!closed) started();
    },
    async close() {
      closed = true;
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
  const leastBusy = (among: Reader[]): Reader => among.reduce((best, reader) => (reader.pending() < best.pending() ? reader : best));
  return {
    all: (sql, params, documents) => leastBusy(readers).all(sql, params, true, documents),
    allIfFree<T>(sql: string, params: readonly unknown[], documents?: DocumentColumn) {
      const free = readers.filter((reader) => reader.scansPending() === 0);
      const running = free.filter((reader) => reader.ready());
      if (running.length > 0) return leastBusy(running).all<T>(sql, params, false, documents);
      // a thread's start takes far longer than a short read: read here meanwhile
      for (const reader of free) reader.warm();
      return undefined;
    },
    mergeText: (table) => maintenance.mergeText(table),
    checkpoint() {
      if (checkpointing) return;
      checkpointing = true;
      leastBusy(readers)
        .all('PRAGMA wal_checkpoint(PASSIVE)', [], true, undefined)
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
