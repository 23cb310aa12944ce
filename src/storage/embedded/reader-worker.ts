import Database, { type Statement } from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { cached, registerFunctions } from './sql-functions';

/**
 * A connection on its own thread (reader-pool): it runs the reads that would hold the main thread for long,
 * against the last committed state (WAL readers never wait for the writer), and the checkpoints that copy the
 * WAL into the database file and flush it. It never writes documents.
 */
export interface ReadRequest {
  id: number;
  sql: string;
  params: unknown[];
}

export type ReadAnswer = { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };

const sqlite = new Database((workerData as { file: string }).file, { fileMustExist: true });
sqlite.pragma('cache_size = -16384');
registerFunctions(sqlite);
const statements = new Map<string, Statement<unknown[]>>();

// a Buffer crosses threads as a plain Uint8Array, which better-sqlite3 does not bind
const revive = (value: unknown): unknown => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value) : value);

parentPort!.on('message', ({ id, sql, params }: ReadRequest) => {
  let answer: ReadAnswer;
  try {
    const statement: Statement<unknown[]> = cached(statements, sql, 200, () => sqlite.prepare<unknown[]>(sql));
    if (!statement.readonly && !/^\s*PRAGMA wal_checkpoint/i.test(sql)) throw new Error('the reader thread only reads and checkpoints');
    answer = { id, rows: statement.all(...params.map(revive)) };
  } catch (error) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    answer = { id, error: { message: String(message), code: typeof code === 'string' ? code : undefined } };
  }
  parentPort!.postMessage(answer);
});
