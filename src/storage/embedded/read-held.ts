import { select, type CollectionContext, type Read } from './collection-read';
import { quote } from './database-state';
import type { HeldRow } from './held-rows';

/**
 * Rows a collection may have and still be held: each read of held rows tests every one, where SQL reads the few
 * it asks for from an index. A relation read's filter (scope, `$in` of 10 documentIds) took 0.15–0.2 µs a row,
 * 40–50 µs for 256 rows, about what the statement alone takes for such a read (46–102 µs). Told by the largest
 * row key, which a read finds in the index at once: a collection whose early rows were deleted is read from SQL
 * as a large one is.
 */
export const MAX_HELD_ROWS = 256;
/** their documents' stored bytes (JSONB, close to their JSON's), held parsed: a project's small collections together stay a few megabytes */
export const MAX_HELD_BYTES = 256 * 1024;
/**
 * Conditions a filter may name and still be answered from held rows, on the main thread, each row tested by
 * each: a relation read names 3–6 (its scope, its documentIds). A large filter (5,000 `$or` branches, which a
 * request may send) goes to SQL on a reader thread, as a search does (`heavy`): tested against 256 rows here,
 * it would hold every other request.
 */
export const MAX_HELD_CONDITIONS = 32;

/** whether `value` names at most `budget.left` conditions: its objects' keys; a list of values (`$in`) is one */
function conditionsWithin(value: unknown, budget: { left: number }): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.every((item) => conditionsWithin(item, budget));
  for (const [, inner] of Object.entries(value)) if (--budget.left < 0 || !conditionsWithin(inner, budget)) return false;
  return true;
}

/**
 * The collection's rows held as of the last commit, read into memory once it has been read `holdAfterReads`
 * times since that commit, when it is small; undefined when the read must go to SQL: a search or a large filter
 * (a reader thread's work), a read inside a transaction, which sees its own writes, and one while another
 * caller's transaction has changed the catalog (it then sees that transaction's writes, readersSeeCatalog).
 */
export async function heldRowsOf(context: CollectionContext, { database, state, selection, filter }: Read): Promise<readonly HeldRow[] | undefined> {
  const { store, name } = context;
  if (selection.heavy || !store.readersSeeCatalog() || !conditionsWithin(filter, { left: MAX_HELD_CONDITIONS })) return undefined;
  const lastCommit = state.counts.lastCommit;
  const held = state.held.at(lastCommit);
  if (held || !state.held.due(lastCommit, store.holdAfterReads)) return held;
  const table = quote(state.tables.docs);
  const { n } = store.statementHere(`SELECT max(k) AS n FROM ${table}`).get() as { n: number | null };
  if ((n ?? 0) > MAX_HELD_ROWS) return undefined;
  // told before the rows cross to this thread: a few rows can be megabytes each. SQLite tells a blob's length
  // without reading it; stored as JSONB, it is close to the JSON's.
  const { bytes } = store.statementHere(`SELECT sum(length(doc)) AS bytes FROM ${table}`).get() as { bytes: number | null };
  if ((bytes ?? 0) > MAX_HELD_BYTES) return undefined;
  // the rows with the number of the commit they are as of, from one snapshot; one row of nulls when there are none
  const sql = `SELECT (SELECT n FROM folio_generations WHERE collection = ?) AS g, d.k AS k, json(d.doc) AS doc FROM (SELECT 1) LEFT JOIN ${table} AS d ORDER BY d.k`;
  const found = await select<{ g: number | null; k: number | null; doc: string | null }>(context, database, sql, [name], false);
  const seen = found[0]?.g ?? 0;
  // a commit since (this process's or, read again, another's): these rows are no longer the last commit's
  if (seen !== state.counts.lastCommit || !store.readersSeeCatalog()) return undefined;
  const rows = found
    .filter((row): row is { g: number | null; k: number; doc: string } => row.k !== null && row.doc !== null)
    .map(({ k, doc }): HeldRow => ({ k, doc: JSON.parse(doc), bytes: doc.length }));
  state.held.hold(seen, rows);
  return rows;
}
