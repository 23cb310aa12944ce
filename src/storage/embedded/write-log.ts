import type { StoredDocument } from '../types';
import { statement, type DatabaseState } from './database-state';

/**
 * The last writes of each collection with their documents before and after (folio_write_log), kept by a worker
 * group's processes (DatabaseState `logsWrites`): another worker's commit then moves a process's remembered
 * totals instead of forgetting them. Forgotten, the articles' total was counted again after each of them (8-10 ms
 * at 50,000 articles), and a search's total was nearly never remembered.
 */

/** writes a process may be behind and still follow; past them its totals are counted again */
export const FOLLOW_AT_MOST = 64;
/** rows kept per collection, trimmed every FOLLOW_AT_MOST writes */
const KEPT = 2 * FOLLOW_AT_MOST;

export interface LoggedWrite {
  before: StoredDocument | undefined;
  /** the stored document's JSON */
  after: string | undefined;
}

/** logs the write numbered `generation` of collection `name`, in the transaction that makes it */
export function logWrite(db: DatabaseState, name: string, generation: number, before: StoredDocument | undefined, after: string | undefined): void {
  statement(db, 'INSERT INTO folio_write_log (collection, n, before, after) VALUES (?, ?, ?, ?)').run(name, generation, before === undefined ? null : JSON.stringify(before), after ?? null);
  if (generation % FOLLOW_AT_MOST === 0) statement(db, 'DELETE FROM folio_write_log WHERE collection = ? AND n <= ?').run(name, generation - KEPT);
}

/**
 * The writes of `name` numbered past `from` up to `to`, oldest first, when the log holds every one of them: a
 * write logged by no process (a bulk write, which is not logged; an earlier build) leaves a gap, and the answer is none.
 */
export function loggedWrites(db: DatabaseState, name: string, from: number, to: number): LoggedWrite[] | undefined {
  const behind = to - from;
  if (behind <= 0 || behind > FOLLOW_AT_MOST) return undefined;
  const rows = statement(db, 'SELECT n, before, after FROM folio_write_log WHERE collection = ? AND n > ? ORDER BY n LIMIT ?').all(name, from, behind) as Array<{
    n: number;
    before: string | null;
    after: string | null;
  }>;
  // numbers are unique per collection: as many rows as writes, the last numbered `to`, are all of them
  if (rows.length !== behind || rows[behind - 1].n !== to) return undefined;
  return rows.map(({ before, after }) => ({ before: before === null ? undefined : (JSON.parse(before) as StoredDocument), after: after ?? undefined }));
}
