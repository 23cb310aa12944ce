import type { Statement } from 'better-sqlite3';
import { normalizeIndexSpec } from '../index-spec';
import type { IndexSpec, StoredDocument } from '../types';
import type { CollectionState } from './collection-state';
import { extractOf } from './compile-filter';
import { committedStatement, quote, statement, type DatabaseState } from './database-state';

/** the value of `field` in the last row */
export function lastValue(db: DatabaseState, target: CollectionState, field: string): number | null {
  const row = statement(db, `SELECT ${extractOf(field, 'doc')} AS v FROM ${quote(target.tables.docs)} ORDER BY k DESC LIMIT 1`).get() as { v: number } | undefined;
  return row?.v ?? null;
}

function decideOrder(db: DatabaseState, target: CollectionState, field: string, ascends: boolean): void {
  statement(db, 'INSERT OR REPLACE INTO folio_ascending (collection, field, ascends) VALUES (?, ?, ?)').run(target.name, field, ascends ? 1 : 0);
  if (ascends) target.ascending.set(field, lastValue(db, target, field));
  // Losing the order is not a change the reader threads must wait for (catalogAhead, which has reads outside
  // the open transaction see its writes): a read compiled without the key order is right on any commit, and
  // one compiled with it and answered after this commits is read again (catalogVersion).
  else if (target.ascending.delete(field)) db.catalogVersion++;
}

/** An insert keeps each ascending field ascending, or ends it; a replace that changes one's value ends it. */
export function noteOrder(db: DatabaseState, target: CollectionState, document: StoredDocument, previous?: StoredDocument): void {
  for (const [field, last] of target.ascending) {
    const value = document[field];
    if (previous ? value === previous[field] : typeof value === 'number' && (last === null || value > last)) {
      if (!previous) target.ascending.set(field, value as number);
    } else decideOrder(db, target, field, false);
  }
}

/** EmbeddedDatabase `trackOrder` */
export function trackOrder(db: DatabaseState, target: CollectionState, input: IndexSpec): void {
  const spec = normalizeIndexSpec(input);
  const field = spec.keys[0][0];
  const extract = extractOf(field, 'doc');
  if (!spec.unique || spec.keys.length !== 1 || field.includes('.') || !extract) return;
  if (statement(db, 'SELECT 1 FROM folio_ascending WHERE collection = ? AND field = ?').get(target.name, field)) return;
  const type = extract.replace('json_extract', 'json_type');
  const outOfOrder = `SELECT count(*) AS n FROM (SELECT ${type} AS t, ${extract} AS v, lag(${extract}) OVER (ORDER BY k) AS p FROM ${quote(target.tables.docs)}) WHERE t IS NULL OR t NOT IN ('integer', 'real') OR v <= p`;
  const ascends = (read: Statement): boolean => (read.get() as { n: number }).n === 0;
  // a table this transaction created holds nothing in the last commit
  const committedRows = (): boolean => committedStatement(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(target.tables.docs) !== undefined;
  // Of the rows this transaction sees and of the last commit's, which reads outside it see: asked inside a
  // caller's transaction that removed a row out of order, this one's alone had reads outside it sort in key
  // order rows that were not. Ascending in one only, it is taken as not ascending, for good.
  const inLastCommit = !db.sqlite.inTransaction || !committedRows() || ascends(committedStatement(db, outOfOrder));
  decideOrder(db, target, field, ascends(statement(db, outOfOrder)) && inLastCommit);
}
