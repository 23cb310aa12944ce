import type { Statement } from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { PARSE_ON_THREAD_FROM, readDocumentRows, type DocumentColumn } from './document-column';
import { cached } from './sql-functions';
import { openReadConnection } from './read-connection';

/**
 * A connection on its own thread (reader-pool): it runs the reads that would hold the main thread for long,
 * against the last committed state (WAL readers never wait for the writer), the checkpoints that copy the
 * WAL into the database file and flush it, and (on a thread of its own) the merges of trigram indexes, under
 * the store's write lock. It never writes documents.
 */
/** `documents`: the rows' `doc` column holds documents' JSON text, counted here, and parsed here when the page is large (document-column) */
export type ReadRequest = { id: number; sql: string; params: unknown[]; documents?: DocumentColumn } | { id: number; mergeText: string };

export type ReadAnswer = { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };

/** sent once the connection is open: reads sent earlier wait for it */
export interface ReaderReady {
  ready: true;
}

const sqlite = openReadConnection((workerData as { file: string }).file);
// a merge's commit must not checkpoint here, under the store's write lock: checkpoints are asked for apart
sqlite.pragma('wal_autocheckpoint = 0');
const statements = new Map<string, Statement<unknown[]>>();

// a Buffer crosses threads as a plain Uint8Array, which better-sqlite3 does not bind
const revive = (value: unknown): unknown => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value) : value);

/**
 * A full merge of a trigram index's segments into one (text-index-merges), as one command: merged in steps
 * with writes between, FTS5 starts the merge over at each step once a write has added a segment, and a merge
 * under a steady stream of writes never ended.
 */
function mergeText(table: string): void {
  const quoted = `"${table.replaceAll('"', '""')}"`;
  cached(statements, `optimize ${quoted}`, 200, () => sqlite.prepare<unknown[]>(`INSERT INTO ${quoted} (${quoted}) VALUES ('optimize')`)).run();
}

function read(sql: string, params: unknown[], documents: DocumentColumn | undefined): unknown[] {
  const statement: Statement<unknown[]> = cached(statements, sql, 200, () => sqlite.prepare<unknown[]>(sql));
  if (!statement.readonly && !/^\s*PRAGMA wal_checkpoint/i.test(sql)) throw new Error('the reader thread only reads and checkpoints');
  return documents ? readDocumentRows(statement, params.map(revive), documents, PARSE_ON_THREAD_FROM) : statement.all(...params.map(revive));
}

function answer(request: ReadRequest): ReadAnswer {
  const { id } = request;
  try {
    if ('mergeText' in request) {
      mergeText(request.mergeText);
      return { id, rows: [] };
    }
    return { id, rows: read(request.sql, request.params, request.documents) };
  } catch (error) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    return { id, error: { message: String(message), code: typeof code === 'string' ? code : undefined } };
  }
}

// the reads the pool sent together, answered together
parentPort!.on('message', (requests: ReadRequest[]) => parentPort!.postMessage(requests.map(answer)));
parentPort!.postMessage({ ready: true } satisfies ReaderReady);
