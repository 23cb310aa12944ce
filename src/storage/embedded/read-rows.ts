import { documentsBytes, spendBytes } from '../byte-allowance';
import { assertBatchSize, type NormalizedFindOptions } from '../find-options';
import type { Filter, StoredDocument } from '../types';
import { documentsOf, withDocuments, limitSql, readAgainIfChanged, readOf, selectDocuments, type CollectionContext, type Read } from './collection-read';
import type { CollectionState } from './collection-state';
import { compileSelection, extractOf, type Selection, type Sql } from './compile-filter';
import { quote } from './database-state';
import type { DocumentRow } from './document-column';
import { sortsInSql } from './path-kinds';
import { sortEntries } from './sort-documents';
import { answerFromHeld, type HeldOrder } from './held-rows';
import { heldRowsOf } from './read-held';

/**
 * A page skipping this many rows or more is read on a reader thread, even from an index: skipping 5,000 index
 * entries (page 200 of a sorted list) took 0.2 ms of main thread, a quarter of such a request's time there.
 */
const SKIP_READ_APART = 1000;

/** The ORDER BY term of the rows' key, which breaks ties in insertion order. */
export const KEY_TERM = 'd.k';

/**
 * ORDER BY's terms for `sort` when SQL's order is MongoDB's on every key; undefined when the documents must be
 * sorted here. Ties are broken by the rows' key (KEY_TERM) unless the last key leaves none.
 */
export function orderTerms(state: CollectionState, sort: NormalizedFindOptions['sort']): Array<[expression: string, direction: 'ASC' | 'DESC']> | undefined {
  const terms: Array<[string, 'ASC' | 'DESC']> = [];
  for (const [path, direction] of sort) {
    const extract = extractOf(path);
    if (!extract || !sortsInSql(state, path)) return undefined;
    terms.push([extract, direction === 1 ? 'ASC' : 'DESC']);
  }
  const last = sort[sort.length - 1];
  // A field ascending with the keys (`id`, which every list's sort ends with) holds a number of its own in every
  // row: no tie is left. A term for the key after it made SQLite sort each run of equal values apart whenever the
  // index goes on past the field (`[_status, locale, views, id, featured, …]`), every row up to the page's end:
  // page 181 of `views:desc` at 50,000 articles took 2.7–3.1 ms, 0.4–0.5 ms without the term.
  if (last !== undefined && state.ascending.has(last[0])) return terms;
  // after a key no two rows share, the key is no tie-break, and following the last key's direction lets SQLite
  // read an index backwards instead of sorting
  const unique = last !== undefined && state.indexes.some((index) => index.unique && index.keys.length === 1 && index.keys[0][0] === last[0]);
  terms.push([KEY_TERM, unique && last[1] === -1 ? 'DESC' : 'ASC']);
  return terms;
}

/**
 * The rows' key order, when `sort` leads with a field that ascends with it (CollectionState `ascending`): that
 * field is unique, so the keys after it never decide.
 */
export function keyOrder(state: CollectionState, sort: NormalizedFindOptions['sort']): 'ASC' | 'DESC' | undefined {
  const [first] = sort;
  if (first === undefined || !state.ascending.has(first[0])) return undefined;
  return first[1] === 1 ? 'ASC' : 'DESC';
}

/**
 * A search's matches, when they are all its selection holds and its index gives them in the rows' key order
 * (compile-filter `rowidOrder`): their subquery, to read in that order. Read so, a search's page costs what its
 * page holds, not every match joined to its row and sorted: at 200,000 articles, a title search with its
 * total and page took 0.36 ms instead of 0.9–1.05 ms (sorted by id, read through the `rows` index).
 */
export function matchesInKeyOrder(selection: Selection): Sql | undefined {
  return selection.keys?.rowidOrder ? selection.keys : undefined;
}

export const orderSql = (terms: ReadonlyArray<[string, string]>): string => terms.map(([expression, direction]) => `${expression} ${direction}`).join(', ');

/**
 * Whether the page of a search matching `total` of a table's `rows` is cheaper read in the sort's index order,
 * testing each row until the page's `end`, than from the search's matches, every one read and sorted. Walking
 * visits about end × rows ÷ total rows at 1.9 µs each (a document read, a RegExp); the matches cost 1.3 µs each
 * (joined, sorted). Measured at 200,000 articles, a page of 25: a word in half the titles took 0.08 ms walked and
 * 60 ms from its matches, one in 0.8 % of them 7.3 ms walked and 1.3 ms from its matches.
 */
const walkPays = (total: number, end: number, rows: number): boolean => total * total * 1.3 >= end * rows * 1.9;

/**
 * The selection of a page read in the sort's index order, its searches tested row by row, when the filter's
 * `total` says that pays (walkPays) and SQLite's plan does walk the index.
 */
function walking(read: Read, options: NormalizedFindOptions, order: string, total: number | undefined): Selection | undefined {
  if (total === undefined || !read.selection.driven || options.limit === undefined || !Number.isFinite(options.limit)) return undefined;
  const table = quote(read.state.tables.docs);
  const { n } = read.database.statement(`SELECT max(k) AS n FROM ${table}`).get() as { n: number | null };
  if (!walkPays(total, options.skip + options.limit, n ?? 0)) return undefined;
  const selection = compileSelection(read.state, read.filter, table, 'scanned');
  const sql = `SELECT d.k AS k ${selection.sql} ORDER BY ${order} ${limitSql(options.limit)} OFFSET ?`;
  return read.database.sortsApart(sql, [...selection.params, options.skip]) ? undefined : selection;
}

function heldOrder(state: CollectionState, sort: NormalizedFindOptions['sort']): HeldOrder {
  const direction = sort.length === 0 ? 'ASC' : keyOrder(state, sort);
  if (direction) return { byKey: direction === 'ASC' ? 1 : -1 };
  return { ties: orderTerms(state, sort)?.find(([expression]) => expression === KEY_TERM)?.[1] === 'DESC' ? -1 : 1 };
}

/** A page of the read's rows. `total`: the filter's, when known: it may choose how the page is read */
export async function rows(context: CollectionContext, read: Read, options: NormalizedFindOptions, total?: number): Promise<DocumentRow[]> {
  if (!read.state.created) return [];
  const held = await heldRowsOf(context, read);
  if (held) return answerFromHeld(held, read.filter, options, heldOrder(read.state, options.sort));
  return readAgainIfChanged(context, read, (again, here) => readRows(context, again, options, total, here));
}

async function readRows(context: CollectionContext, read: Read, options: NormalizedFindOptions, total: number | undefined, here: boolean): Promise<DocumentRow[]> {
  const { database, state } = read;
  if (!state.created) return [];
  const counted = { allowance: options.allowance };
  const table = quote(state.tables.docs);
  const direction = keyOrder(state, options.sort);
  const matches = matchesInKeyOrder(read.selection);
  if (direction && matches) {
    // FTS5 reads a MATCH in rowid order, either way, and stops at the page's end
    const sql = `${matches.sql} ORDER BY rowid ${direction} ${limitSql(options.limit)} OFFSET ?`;
    return selectDocuments(context, database, withDocuments(sql, table), [...matches.params, options.skip], true, here, counted);
  }
  const terms = orderTerms(state, options.sort);
  if (terms !== undefined) {
    const order = orderSql(terms);
    const selection = walking(read, options, order, total) ?? read.selection;
    const params = [...selection.params, options.skip];
    const apart = selection.heavy || options.skip >= SKIP_READ_APART;
    const page = `${selection.sql} ORDER BY ${order} ${limitSql(options.limit)} OFFSET ?`;
    // Read in an index's order, the documents come with their keys: SQLite reads a row's document only once
    // it is past the OFFSET (a get-one took 28 µs instead of 39, a list page 42 instead of 53). Sorted apart,
    // every match would carry its document into the sort: the page's keys first, then their documents (withDocuments).
    if (!database.sortsApart(`SELECT d.k AS k ${page}`, params)) return selectDocuments(context, database, `SELECT d.k AS k, json(d.doc) AS doc ${page}`, params, apart, here, counted);
    return selectDocuments(context, database, withDocuments(`SELECT d.k AS k ${page}`, table), params, apart, here, counted);
  }
  // a sort SQL cannot give exactly (mixed types, arrays, paths through arrays): every match, sorted here
  const { selection } = read;
  // what is read to be sorted is not what the read takes: the page alone counts against the allowance
  const matched = await selectDocuments(context, database, `SELECT d.k AS k, json(d.doc) AS doc ${selection.sql}`, selection.params, selection.heavy, here, {});
  const parsed = new Map(matched.map((row) => [row.k, row]));
  const keys = sortEntries(matched.map((row): [number, StoredDocument] => [row.k, row.doc]), options.sort);
  const end = options.limit === undefined ? undefined : options.skip + options.limit;
  const pageRows = keys.slice(options.skip, end).map((key) => parsed.get(key)!);
  if (options.allowance) spendBytes(options.allowance, documentsBytes(pageRows.map((row) => row.doc)));
  return pageRows;
}

/** Collection `findInBatches` */
export async function* documentsInBatches(context: CollectionContext, filter: Filter, batchSize: number): AsyncGenerator<StoredDocument[]> {
  assertBatchSize(batchSize);
  // by internal key: each document is visited once however the collection changes between batches
  for (let after = 0; ; ) {
    const read = readOf(context, filter);
    if (!read.state.created) return;
    const batch = await readAgainIfChanged(context, read, ({ database, selection }, here) => {
      const sql = `SELECT d.k AS k, json(d.doc) AS doc ${selection.sql} AND d.k > ? ORDER BY d.k ${limitSql(batchSize)}`;
      return selectDocuments(context, database, sql, [...selection.params, after], false, here, {});
    });
    if (batch.length === 0) return;
    yield documentsOf(batch, undefined);
    after = batch[batch.length - 1].k;
  }
}
