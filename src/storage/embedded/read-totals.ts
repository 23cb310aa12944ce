import { emptyGroup, normalizeAggregateQuery } from '../aggregate-query';
import { normalizeFindOptions } from '../find-options';
import type { AggregateGroup, AggregateQuery, Filter, FindOptions, StoredDocument } from '../types';
import { aggregateSql, groupOfRow } from './aggregate-sql';
import { documentsOf, withDocuments, limitSql, readAgainIfChanged, readOf, select, type CollectionContext, type Read } from './collection-read';
import { quote } from './database-state';
import { KEY_TERM, keyOrder, matchesInKeyOrder, orderSql, orderTerms, rows } from './read-rows';

/** The number of the collection's last write the snapshot saw (count-cache), read by the statement that counts. */
const GENERATION_SQL = '(SELECT n FROM folio_generations WHERE collection = ?) AS g';

/**
 * `key`: the filter's key in the remembered totals. Outside a transaction, a total already being counted is
 * waited for, then taken moved to the last commit: when totals are forgotten (a bulk write, this worker's or
 * another's, a start), every request in flight asks for the list's total at once. Two workers at 50,000
 * articles, 20 writes a second, forgetting them at each other's commits, ran 95-336 counts of the same 8-10 ms
 * each per 10 s on each reader thread under the REST list (p99 1,176 ms).
 */
export async function count(context: CollectionContext, first: Read, key: string): Promise<number> {
  const { store } = context;
  const { state } = first;
  if (!state.created) return 0;
  const outside = store.readersSeeCatalog();
  const remembered = state.counts.get(key, !outside);
  if (remembered !== undefined) return remembered;
  if (!outside) return countRows(context, first, key);
  const pending = state.counting.get(key);
  if (pending) {
    // its failure is its own caller's to report; a write since that could not be played onto it: counted here
    await pending.catch(() => undefined);
    return state.counts.get(key, !store.readersSeeCatalog()) ?? countRows(context, first, key);
  }
  const counting = countRows(context, first, key);
  state.counting.set(key, counting);
  try {
    return await counting;
  } finally {
    state.counting.delete(key);
  }
}

/**
 * The filter's total counted, and remembered. A count compiled against a catalog that changed before its answer
 * came (a field's first array, committed while it waited for a reader thread) missed what the new catalog
 * reads: it is counted again (readAgainIfChanged).
 */
async function countRows(context: CollectionContext, first: Read, key: string): Promise<number> {
  const { name } = context;
  const { state, filter } = first;
  const [row] = await readAgainIfChanged(context, first, ({ database, selection }, here) => {
    // a search's matches alone, when they are all the selection holds: not joined to their rows
    const counted = selection.keys
      ? { sql: `SELECT count(*) AS n, ${GENERATION_SQL} FROM (${selection.keys.sql})`, params: [name, ...selection.keys.params] }
      : { sql: `SELECT count(*) AS n, ${GENERATION_SQL} ${selection.sql}`, params: [name, ...selection.params] };
    return select<{ n: number; g: number | null }>(context, database, counted.sql, counted.params, selection.heavy, here);
  });
  state.counts.remember(key, filter, row.n, row.g ?? 0);
  return row.n;
}

/**
 * A page and its filter's total. A condition the reader threads answer (a text search, read in full whether
 * it matches ten rows or half the collection) is searched once for both: the page query and the count each
 * ran the search and read every match's scope, twice the work for one request. `again`: read once already,
 * against a catalog that changed meanwhile: page and total are read apart (see rows).
 */
export async function page(
  context: CollectionContext,
  filter: Filter,
  options: FindOptions | undefined,
  again = false,
): Promise<{ documents: StoredDocument[]; total: number }> {
  const { name, store } = context;
  const normalized = normalizeFindOptions(options);
  const read = readOf(context, filter);
  const { database, state, selection } = read;
  const cacheKey = JSON.stringify(filter);
  const terms = orderTerms(state, normalized.sort);
  const readersSee = store.readersSeeCatalog();
  const remembered = state.counts.get(cacheKey, !readersSee);
  if (again || !state.created || !selection.heavy || !readersSee || terms === undefined || remembered !== undefined) {
    const [found, total] = await Promise.all([rows(context, read, normalized, remembered), count(context, read, cacheKey)]);
    return { documents: documentsOf(found, normalized.projection), total };
  }
  const direction = keyOrder(state, normalized.sort);
  const matches = matchesInKeyOrder(selection);
  // the matches with the columns they are sorted by (the key is one already, k), and those columns' order
  const columns = terms.filter(([expression]) => expression !== KEY_TERM);
  const sorted =
    direction && matches
      ? { sql: matches.sql, params: matches.params, order: `k ${direction}` }
      : {
          sql: `SELECT d.k AS k${columns.map(([expression], index) => `, ${expression} AS o${index}`).join('')} ${selection.sql}`,
          params: selection.params,
          order: orderSql(terms.map(([expression, direction]): [string, string] => [expression === KEY_TERM ? 'k' : `o${columns.findIndex((column) => column[0] === expression)}`, direction])),
        };
  const table = quote(state.tables.docs);
  // the total, then the page's rows with their documents (withDocuments), in one statement on one reader thread
  const sql =
    `WITH m AS MATERIALIZED (${sorted.sql}) ` +
    `SELECT NULL AS k, count(*) AS n, ${GENERATION_SQL}, NULL AS doc FROM m UNION ALL ` +
    `SELECT k, NULL, NULL, doc FROM (${withDocuments(`SELECT k FROM m ORDER BY ${sorted.order} ${limitSql(normalized.limit)} OFFSET ?`, table)})`;
  const found = await store.readers().all<{ k: number | null; n: number | null; g: number | null; doc: StoredDocument | null }>(sql, [...sorted.params, name, normalized.skip], { allowance: normalized.allowance });
  // compiled against a catalog that has changed since: read again, page and total apart
  if (database.catalogVersion() !== read.version) return page(context, filter, options, true);
  const counted = found.find((row) => row.k === null);
  const total = counted?.n ?? 0;
  state.counts.remember(cacheKey, filter, total, counted?.g ?? 0);
  const pageRows = found.flatMap((row) => (row.k === null || row.doc === null ? [] : [{ k: row.k, doc: row.doc }]));
  return { documents: documentsOf(pageRows, normalized.projection), total };
}

/**
 * An aggregation in one statement, always on a reader thread: it reads every match (from an index alone when
 * it counts by an indexed field), which at 200,000 articles is milliseconds the main thread would not answer.
 */
export async function aggregate(context: CollectionContext, filter: Filter, query: AggregateQuery): Promise<AggregateGroup[]> {
  const normalized = normalizeAggregateQuery(query);
  const read = readOf(context, filter);
  if (!read.state.created) return normalized.groupBy.length === 0 && normalized.skip === 0 ? [emptyGroup(normalized)] : [];
  const grouped = await readAgainIfChanged(context, read, ({ database, selection, state }, here) => {
    const streamed = aggregateSql(selection, normalized, state);
    const statement = normalized.groupBy.length > 0 && database.groupsApart(streamed.sql, streamed.params) ? aggregateSql(selection, normalized, state, true) : streamed;
    return select<Record<string, unknown>>(context, database, statement.sql, statement.params, true, here);
  });
  return grouped.map((row) => groupOfRow(row, normalized));
}
