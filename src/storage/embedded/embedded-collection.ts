import type { Statement } from 'better-sqlite3';
import { assertSafeFilter } from '../filter-guard';
import { assertBatchSize, normalizeFindOptions, type NormalizedFindOptions } from '../find-options';
import { normalizeIndexSpec, sameIndex, samePartition } from '../index-spec';
import type { AggregateGroup, AggregateQuery, Collection, Filter, FindOptions, StoredDocument, UpdateSpec } from '../types';
import { emptyGroup, normalizeAggregateQuery } from '../aggregate-query';
import { aggregateSql, groupOfRow } from './aggregate-sql';
import { cloneDocument } from '../clone-document';
import { applyUpdate, prepareUpdate } from './apply-update';
import type { CollectionState } from './collection-state';
import { compileSelection, extractOf, type Selection, type Sql } from './compile-filter';
import type { EmbeddedDatabase } from './embedded-database';
import { sortsInSql } from './path-kinds';
import { projectDocument } from './project-document';
import { sortEntries } from './sort-documents';
import type { ReaderPool } from './reader-pool';

/** What a collection needs from its store. */
export interface EmbeddedStoreAccess {
  /** the database; throws once the store is closed */
  database(): EmbeddedDatabase;
  /** runs `apply` in a SQLite transaction (the caller's, or its own, committed before resolving); all or nothing */
  write<T>(apply: () => T): Promise<T>;
  /** whether the caller is inside a transaction: it reads on the writing connection, to see its own writes */
  inTransaction(): boolean;
  /**
   * Whether a reader thread, which sees the last commit, can run statements compiled from the catalog in
   * memory: not inside the caller's transaction, nor while another caller's transaction has changed the catalog
   * (a new table, a field's first array read through the multikey entries, which that transaction wrote). Reads
   * are then run on the writing connection, blocking (it is rare), and see the open transaction's writes: so do
   * the totals they are given (count-cache's `uncommitted`).
   */
  readersSeeCatalog(): boolean;
  /**
   * `sql` prepared where a read on this thread is answered: the connection that reads the last commit while
   * another caller's transaction is open and readers see the catalog, else the writing one
   */
  statementHere(sql: string): Statement;
  readers(): ReaderPool;
}

/** What a read works with: the database, the collection's state, the filter compiled against it (once per call). */
interface Read {
  database: EmbeddedDatabase;
  state: CollectionState;
  filter: Filter;
  /** `FROM … WHERE …` */
  selection: Selection;
  /** the catalog's version it was compiled against */
  version: number;
}

interface Row {
  k: number;
  doc: string;
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * A page skipping this many rows or more is read on a reader thread, even from an index: skipping 5,000 index
 * entries (page 200 of a sorted list) took 0.2 ms of main thread, a quarter of such a request's time there.
 */
const SKIP_READ_APART = 1000;

/**
 * Reads apart, on a reader thread, of one request whose catalog changes while each waits: past them it is
 * compiled and read on this thread (select's `here`), where nothing can change between. One more read apart
 * after each change keeps a long scan off the main thread (read here, a 0.65 s scan held every other request);
 * the bound keeps a stream of changes from holding the request.
 */
const MAX_READS_APART = 3;

/**
 * A LIMIT written into the statement, not bound: SQLite plans with a bound LIMIT's value, so every
 * execution re-prepared the statement (a point read by documentId took 34 µs with `LIMIT ?`, 7 µs with
 * `LIMIT 1`). Limits are validated integers and take few values, so the statement cache still serves.
 */
const limitSql = (limit: number | undefined): string => `LIMIT ${limit === undefined || !Number.isFinite(limit) ? -1 : Math.trunc(limit)}`;

/** ORDER BY's terms for `sort` when SQL's order is MongoDB's on every key; undefined when the documents must be sorted here. */
function orderTerms(state: CollectionState, sort: NormalizedFindOptions['sort']): Array<[expression: string, direction: 'ASC' | 'DESC']> | undefined {
  const terms: Array<[string, 'ASC' | 'DESC']> = [];
  for (const [path, direction] of sort) {
    const extract = extractOf(path);
    if (!extract || !sortsInSql(state, path)) return undefined;
    terms.push([extract, direction === 1 ? 'ASC' : 'DESC']);
  }
  // ties in insertion order; after a key no two rows share, the key is no tie-break, and following the last
  // key's direction lets SQLite read an index backwards instead of sorting
  const last = sort[sort.length - 1];
  const unique = last !== undefined && state.indexes.some((index) => index.unique && index.keys.length === 1 && index.keys[0][0] === last[0]);
  terms.push(['d.k', unique && last[1] === -1 ? 'DESC' : 'ASC']);
  return terms;
}

/**
 * The rows' key order, when `sort` leads with a field that ascends with it (CollectionState `ascending`): that
 * field is unique, so the keys after it never decide.
 */
function keyOrder(state: CollectionState, sort: NormalizedFindOptions['sort']): 'ASC' | 'DESC' | undefined {
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
function matchesInKeyOrder(selection: Selection): Sql | undefined {
  return selection.keys?.rowidOrder ? selection.keys : undefined;
}

const orderSql = (terms: ReadonlyArray<[string, string]>): string => terms.map(([expression, direction]) => `${expression} ${direction}`).join(', ');

/** The number of the collection's last write the snapshot saw (count-cache), read by the statement that counts. */
const GENERATION_SQL = '(SELECT n FROM folio_generations WHERE collection = ?) AS g';

/**
 * Whether the page of a search matching `total` of a table's `rows` is cheaper read in the sort's index order,
 * testing each row until the page's `end`, than from the search's matches, every one read and sorted. Walking
 * visits about end × rows ÷ total rows at 1.9 µs each (a document read, a RegExp); the matches cost 1.3 µs each
 * (joined, sorted). Measured at 200,000 articles, a page of 25: a word in half the titles took 0.08 ms walked and
 * 60 ms from its matches, one in 0.8 % of them 7.3 ms walked and 1.3 ms from its matches.
 */
const walkPays = (total: number, end: number, rows: number): boolean => total * total * 1.3 >= end * rows * 1.9;

export function createEmbeddedCollection(name: string, store: EmbeddedStoreAccess): Collection {
  const selectionOf = (state: CollectionState, filter: Filter): Selection => {
    assertSafeFilter(filter);
    return compileSelection(state, filter, quote(state.tables.docs));
  };

  /**
   * A statement's rows: on a reader thread when it may scan, or when one is free (reader-pool); here inside a
   * transaction, to see its writes, when every reader is busy with a scan, and when another caller's transaction
   * changed the catalog. A short read outside another caller's open transaction is read here on the connection
   * that sees the last commit, not its writes, as the remembered totals do: sent to a reader thread instead, a
   * get-one could wait for a thread to start or a scan to end (a subscription's read-back then came after the
   * next write had deleted the document).
   *
   * `here`: on this thread whatever it costs, answered as it is called (see MAX_READS_APART).
   */
  function select<T>(database: EmbeddedDatabase, sql: string, params: readonly unknown[], heavy: boolean | undefined, here = false): Promise<T[]> | T[] {
    if (!here && store.readersSeeCatalog()) {
      if (heavy) return store.readers().all<T>(sql, params);
      const apart = database.sqlite.inTransaction ? undefined : store.readers().allIfFree<T>(sql, params);
      if (apart) return apart;
    }
    return store.statementHere(sql).all(...params) as T[];
  }

  /**
   * `read` answered by `readOnce`, compiled and answered again while the catalog changed meanwhile: its SQL may
   * name what no longer holds (a text index's partition numbered again, a field that stopped ascending). Apart up
   * to MAX_READS_APART times, then here (`here`), where nothing changes between compiling and reading.
   */
  async function readAgainIfChanged<T>(first: Read, readOnce: (read: Read, here: boolean) => Promise<T> | T): Promise<T> {
    for (let read = first, reads = 1; ; read = readOf(read.filter), reads++) {
      const here = reads > MAX_READS_APART;
      const found = await readOnce(read, here);
      if (here || read.database.catalogVersion() === read.version) return found;
    }
  }

  const readOf = (filter: Filter): Read => {
    const database = store.database();
    const state = database.state(name);
    return { database, state, filter, selection: selectionOf(state, filter), version: database.catalogVersion() };
  };

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

  /** `total`: the filter's, when known: it may choose how the page is read */
  const rows = (read: Read, options: NormalizedFindOptions, total?: number): Promise<Row[]> =>
    readAgainIfChanged(read, (again, here) => readRows(again, options, total, here));

  async function readRows(read: Read, options: NormalizedFindOptions, total: number | undefined, here: boolean): Promise<Row[]> {
    const { database, state } = read;
    if (!state.created) return [];
    const table = quote(state.tables.docs);
    const direction = keyOrder(state, options.sort);
    const matches = matchesInKeyOrder(read.selection);
    if (direction && matches) {
      // FTS5 reads a MATCH in rowid order, either way, and stops at the page's end
      const sql = `${matches.sql} ORDER BY rowid ${direction} ${limitSql(options.limit)} OFFSET ?`;
      const keys = (await select<{ k: number }>(database, sql, [...matches.params, options.skip], true, here)).map((row) => row.k);
      return byKeys(database, table, keys);
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
      // every match would carry its document into the sort: the page's keys first, then their documents.
      if (!database.sortsApart(`SELECT d.k AS k ${page}`, params)) return select<Row>(database, `SELECT d.k AS k, json(d.doc) AS doc ${page}`, params, apart, here);
      const keys = (await select<{ k: number }>(database, `SELECT d.k AS k ${page}`, params, apart, here)).map((row) => row.k);
      return byKeys(database, table, keys);
    }
    // a sort SQL cannot give exactly (mixed types, arrays, paths through arrays): every match, sorted here
    const { selection } = read;
    const matched = await select<Row>(database, `SELECT d.k AS k, json(d.doc) AS doc ${selection.sql}`, selection.params, selection.heavy, here);
    const parsed = new Map(matched.map((row) => [row.k, row]));
    const keys = sortEntries(matched.map((row): [number, StoredDocument] => [row.k, JSON.parse(row.doc)]), options.sort);
    const end = options.limit === undefined ? undefined : options.skip + options.limit;
    return keys.slice(options.skip, end).map((key) => parsed.get(key)!);
  }

  async function byKeys(database: EmbeddedDatabase, table: string, keys: number[]): Promise<Row[]> {
    if (keys.length === 0) return [];
    // one document (findOne, get one) by its key alone: json_each's table costs more than the read
    const found =
      keys.length === 1
        ? await select<Row>(database, `SELECT k, json(doc) AS doc FROM ${table} WHERE k = ?`, keys, false)
        : await select<Row>(database, `SELECT k, json(doc) AS doc FROM ${table} WHERE k IN (SELECT value FROM json_each(?))`, [JSON.stringify(keys)], false);
    const byKey = new Map(found.map((row) => [row.k, row]));
    // a document deleted since the reader thread saw it is left out
    return keys.flatMap((key) => byKey.get(key) ?? []);
  }

  const documentsOf = (found: Row[], projection: string[] | undefined): StoredDocument[] =>
    found.map((row) => {
      const document = JSON.parse(row.doc) as StoredDocument;
      return projection ? projectDocument(document, projection) : document;
    });

  /**
   * `key`: the filter's key in the remembered totals. A count compiled against a catalog that changed before
   * its answer came (a field's first array, committed while it waited for a reader thread) missed what the
   * new catalog reads: it is counted again (readAgainIfChanged).
   */
  async function count(first: Read, key: string): Promise<number> {
    const { state, filter } = first;
    if (!state.created) return 0;
    const remembered = state.counts.get(key, !store.readersSeeCatalog());
    if (remembered !== undefined) return remembered;
    const [row] = await readAgainIfChanged(first, ({ database, selection }, here) => {
      // a search's matches alone, when they are all the selection holds: not joined to their rows
      const counted = selection.keys
        ? { sql: `SELECT count(*) AS n, ${GENERATION_SQL} FROM (${selection.keys.sql})`, params: [name, ...selection.keys.params] }
        : { sql: `SELECT count(*) AS n, ${GENERATION_SQL} ${selection.sql}`, params: [name, ...selection.params] };
      return select<{ n: number; g: number | null }>(database, counted.sql, counted.params, selection.heavy, here);
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
  async function page(filter: Filter, options: FindOptions | undefined, again = false): Promise<{ documents: StoredDocument[]; total: number }> {
    const normalized = normalizeFindOptions(options);
    const read = readOf(filter);
    const { database, state, selection } = read;
    const cacheKey = JSON.stringify(filter);
    const terms = orderTerms(state, normalized.sort);
    const readersSee = store.readersSeeCatalog();
    const remembered = state.counts.get(cacheKey, !readersSee);
    if (again || !state.created || !selection.heavy || !readersSee || terms === undefined || remembered !== undefined) {
      const [found, total] = await Promise.all([rows(read, normalized, remembered), count(read, cacheKey)]);
      return { documents: documentsOf(found, normalized.projection), total };
    }
    const direction = keyOrder(state, normalized.sort);
    const matches = matchesInKeyOrder(selection);
    // the matches with the columns they are sorted by, and those columns' order
    const sorted =
      direction && matches
        ? { sql: matches.sql, params: matches.params, order: `k ${direction}` }
        : {
            sql: `SELECT d.k AS k${terms.slice(0, -1).map(([expression], index) => `, ${expression} AS o${index}`).join('')} ${selection.sql}`,
            params: selection.params,
            order: orderSql(terms.map(([, direction], index): [string, string] => [index < terms.length - 1 ? `o${index}` : 'k', direction])),
          };
    const sql =
      `WITH m AS MATERIALIZED (${sorted.sql}) ` +
      `SELECT NULL AS k, count(*) AS n, ${GENERATION_SQL} FROM m UNION ALL SELECT * FROM (SELECT k, NULL, NULL FROM m ORDER BY ${sorted.order} ${limitSql(normalized.limit)} OFFSET ?)`;
    const found = await store.readers().all<{ k: number | null; n: number | null; g: number | null }>(sql, [...sorted.params, name, normalized.skip]);
    // compiled against a catalog that has changed since: read again, page and total apart
    if (database.catalogVersion() !== read.version) return page(filter, options, true);
    const counted = found.find((row) => row.k === null);
    const total = counted?.n ?? 0;
    state.counts.remember(cacheKey, filter, total, counted?.g ?? 0);
    const keys = found.flatMap((row) => (row.k === null ? [] : [row.k]));
    return { documents: documentsOf(await byKeys(database, quote(state.tables.docs), keys), normalized.projection), total };
  }

  /**
   * An aggregation in one statement, always on a reader thread: it reads every match (from an index alone when
   * it counts by an indexed field), which at 200,000 articles is milliseconds the main thread would not answer.
   */
  async function aggregate(filter: Filter, query: AggregateQuery): Promise<AggregateGroup[]> {
    const normalized = normalizeAggregateQuery(query);
    const read = readOf(filter);
    if (!read.state.created) return normalized.groupBy.length === 0 && normalized.skip === 0 ? [emptyGroup(normalized)] : [];
    const rows = await readAgainIfChanged(read, ({ database, selection }, here) => {
      const statement = aggregateSql(selection, normalized);
      return select<Record<string, unknown>>(database, statement.sql, statement.params, true, here);
    });
    return rows.map((row) => groupOfRow(row, normalized));
  }

  /** The rows a write addresses, in natural order: with their documents for an update, keys alone for a delete. */
  function matchingRows(filter: Filter, limit: number, columns: 'd.k AS k, json(d.doc) AS doc' | 'd.k AS k'): Row[] {
    const database = store.database();
    const state = database.state(name);
    const selection = selectionOf(state, filter);
    if (!state.created) return [];
    const sql = `SELECT ${columns} ${selection.sql} ORDER BY d.k ${limitSql(limit)}`;
    return database.statement(sql).all(...selection.params) as Row[];
  }

  async function update(filter: Filter, spec: UpdateSpec, limit: number): Promise<number> {
    const prepared = prepareUpdate(spec);
    assertSafeFilter(filter);
    return store.write(() => {
      const database = store.database();
      const state = database.state(name);
      const matched = matchingRows(filter, limit, 'd.k AS k, json(d.doc) AS doc');
      state.counts.writing(matched.length);
      for (const row of matched) {
        const previous = JSON.parse(row.doc) as StoredDocument;
        database.replace(state, row.k, applyUpdate(previous, prepared), previous);
      }
      return matched.length;
    });
  }

  async function remove(filter: Filter, limit: number): Promise<number> {
    assertSafeFilter(filter);
    return store.write(() => {
      const database = store.database();
      const state = database.state(name);
      const matched = matchingRows(filter, limit, 'd.k AS k');
      state.counts.writing(matched.length);
      for (const row of matched) database.remove(state, row.k);
      return matched.length;
    });
  }

  async function insert(documents: StoredDocument[]): Promise<void> {
    const copies = documents.map(cloneDocument);
    return store.write(() => {
      const database = store.database();
      const state = database.state(name);
      state.counts.writing(copies.length);
      for (const document of copies) database.insert(state, document);
    });
  }

  return {
    name,
    async find(filter, options) {
      const normalized = normalizeFindOptions(options);
      return documentsOf(await rows(readOf(filter), normalized), normalized.projection);
    },
    async findOne(filter, options) {
      const normalized = { ...normalizeFindOptions(options), limit: 1 };
      return documentsOf(await rows(readOf(filter), normalized), normalized.projection)[0] ?? null;
    },
    // async: a refused filter rejects, as every call of the interface does, rather than throwing
    countDocuments: async (filter) => count(readOf(filter), JSON.stringify(filter)),
    findPage: (filter, options) => page(filter, options),
    insertOne: (document) => insert([document]),
    insertMany: (documents) => insert(documents),
    updateOne: (filter, spec) => update(filter, spec, 1),
    updateMany: (filter, spec) => update(filter, spec, Infinity),
    deleteOne: (filter) => remove(filter, 1),
    deleteMany: (filter) => remove(filter, Infinity),
    async createIndex(index) {
      const spec = normalizeIndexSpec(index);
      await store.write(() => {
        const database = store.database();
        const state = database.state(name);
        const existing = state.indexes.find((candidate) => candidate.name === spec.name || sameIndex(candidate, spec));
        if (!existing) database.addIndex(state, spec);
        else if (!sameIndex(existing, spec) || existing.name !== spec.name) {
          throw new Error(`index ${spec.name} on ${name} conflicts with existing index ${existing.name}`);
        } else if (!samePartition(existing, spec)) {
          // a folder written before text indexes were split (or by other partitions): its entries, written again
          database.repartition(state, spec);
        }
        // also for an index older than the question
        database.trackOrder(state, spec);
      });
    },
    async *findInBatches(filter, batchSize) {
      assertBatchSize(batchSize);
      // by internal key: each document is visited once however the collection changes between batches
      for (let after = 0; ; ) {
        const read = readOf(filter);
        if (!read.state.created) return;
        const batch = await readAgainIfChanged(read, ({ database, selection }, here) => {
          const sql = `SELECT d.k AS k, json(d.doc) AS doc ${selection.sql} AND d.k > ? ORDER BY d.k ${limitSql(batchSize)}`;
          return select<Row>(database, sql, [...selection.params, after], false, here);
        });
        if (batch.length === 0) return;
        yield documentsOf(batch, undefined);
        after = batch[batch.length - 1].k;
      }
    },
    aggregate: (filter, query) => aggregate(filter, query),
    async listIndexes() {
      return store.database().state(name).indexes.map((spec) => ({ ...spec, keys: spec.keys.map(([field, direction]) => [field, direction]) }));
    },
  };
}
