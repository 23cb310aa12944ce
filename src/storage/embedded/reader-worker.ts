import Database, { type Statement } from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { cached, registerFunctions } from './sql-functions';

/**
 * A connection on its own thread (reader-pool): it runs the reads that would hold the main thread for long,
 * against the last committed state (WAL readers never wait for the writer), the checkpoints that copy the
 * WAL into the database file and flush it, and the steps of trigram index merges (under the store's write
 * lock). It never writes documents.
 */
export type ReadRequest = { id: number; sql: string; params: unknown[] } | { id: number; mergeText: string };

/** pages of merged segments written per step: a step holds the store's write lock for a few milliseconds */
const MERGE_PAGES = 64;

export type ReadAnswer = { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };

const sqlite = new Database((workerData as { file: string }).file, { fileMustExist: true });
sqlite.pragma('cache_size = -16384');
registerFunctions(sqlite);
const statements = new Map<string, Statement<unknown[]>>();

// a Buffer crosses threads as a plain Uint8Array, which better-sqlite3 does not bind
const revive = (value: unknown): unknown => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value) : value);

const totalChanges = sqlite.prepare<[], { n: number }>('SELECT total_changes() AS n');

/** One step of a full merge of a trigram index's segments (text-index-merges); whether there was work to do. */
function mergeStep(table: string): boolean {
  const quoted = `"${table.replaceAll('"', '""')}"`;
  const before = totalChanges.get()!.n;
  // negative: segments of every level merged together, as FTS5's optimize does, a few pages at a time
  cached(statements, `merge ${quoted}`, 200, () => sqlite.prepare<unknown[]>(`INSERT INTO ${quoted} (${quoted}, rank) VALUES ('merge', ?)`)).run(-MERGE_PAGES);
  // FTS5 counts a step that found nothing to merge as at most one change
  return totalChanges.get()!.n - before >= 2;
}

function read(sql: string, params: unknown[]): unknown[] {
  const statement: Statement<unknown[]> = cached(statements, sql, 200, () => sqlite.prepare<unknown[]>(sql));
  if (!statement.readonly && !/^\s*PRAGMA wal_checkpoint/i.test(sql)) throw new Error('the reader thread only reads and checkpoints');
  return statement.all(...params.map(revive));
}

parentPort!.on('message', (request: ReadRequest) => {
  const { id } = request;
  let answer: ReadAnswer;
  try {
    answer = { id, rows: 'mergeText' in request ? [{ merged: mergeStep(request.mergeText) }] : read(request.sql, request.params) };
  } catch (error) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    answer = { id, error: { message: String(message), code: typeof code === 'string' ? code : undefined } };
  }
  parentPort!.postMessage(answer);
});
