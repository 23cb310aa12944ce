import Database, { type Database as SqliteDatabase, type Statement } from 'better-sqlite3';
import { normalizeIndexSpec, samePartition, type NormalizedIndexSpec } from '../index-spec';
import type { IndexSpec, StoredDocument } from '../types';
import { UniqueConstraintError } from '../types';
import { createCollectionState, type CollectionState } from './collection-state';
import { extractOf } from './compile-filter';
import { entriesOf } from './multikey-entries';
import { collectKinds, KIND } from './path-kinds';
import { indexedText } from './text-pattern';
import { createTextIndexMerges } from './text-index-merges';
import { getPath } from './document-path';
import { cached, registerFunctions } from './sql-functions';
import { openReadConnection } from './read-connection';
import { MAX_PARTITIONS, MAX_TEXT_PATHS, partitionValues, textRowid } from './text-rowid';

/**
 * The embedded engine's SQLite file: per collection a table of JSON documents by internal key (insertion
 * order), expression indexes for the collection's index specs, a multikey table for fields that hold arrays and
 * a contentless trigram index for text paths (text-rowid); a catalog of index specs, text paths, the trigram indexes'
 * partitions and path kinds. Every change
 * to a document and its index entries is made in the caller's SQLite transaction.
 */
export interface EmbeddedDatabase {
  readonly sqlite: SqliteDatabase;
  /** the state of every collection the catalog knows, and of new ones on demand */
  state(name: string): CollectionState;
  catalogNames(): string[];
  /** a cached prepared statement */
  statement(sql: string): Statement;
  /**
   * a cached prepared statement of a second connection on this thread, which reads the last commit: short reads
   * outside another caller's open transaction, which the main connection would answer with its writes
   */
  committedStatement(sql: string): Statement;
  /** whether SQLite's plan for `sql` (with `params`) sorts its rows apart, in a temporary b-tree; remembered by statement */
  sortsApart(sql: string, params: readonly unknown[]): boolean;
  insert(state: CollectionState, document: StoredDocument): void;
  /** `previous`: the document the row holds now, as the caller read it */
  replace(state: CollectionState, key: number, document: StoredDocument, previous: StoredDocument): void;
  remove(state: CollectionState, key: number): void;
  addIndex(state: CollectionState, spec: IndexSpec): void;
  /** the text index of the same path as `spec`, split by `spec`'s partition instead: its entries written again */
  repartition(state: CollectionState, spec: IndexSpec): void;
  /**
   * Whether the field of `spec` (unique, one top-level key) ascends with the row key (CollectionState
   * `ascending`): found out from the rows, once per index, for an index older than this question too.
   */
  trackOrder(state: CollectionState, spec: IndexSpec): void;
  /** the trigram indexes whose writes call for a full merge (text-index-merges) */
  textIndexesDue(): string[];
  /** the trigram indexes left fragmented */
  fragmentedTextIndexes(): string[];
  /**
   * Whether the open transaction changed the catalog (a new collection, index, or path kind such as a field's
   * first array): statements compiled from it then read what only this connection has, not a reader thread.
   */
  catalogAhead(): boolean;
  /** bumped by every change of the catalog in memory (a statement compiled before it may no longer fit the data) */
  catalogVersion(): number;
  /** the transaction ended with a commit: the catalog in memory is the file's again, and its writes count in the remembered totals */
  committed(): void;
  /** re-reads the catalog: after a rollback the in-memory view may be ahead of the file */
  reload(): void;
  close(): void;
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const MAX_STATEMENTS = 500;
/** documents written between refreshes of the planner's statistics */
const ANALYSE_EVERY = 5000;

const CATALOG_SQL = `
CREATE TABLE IF NOT EXISTS folio_catalog (name TEXT PRIMARY KEY, indexes TEXT NOT NULL, text_paths TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS folio_paths (collection TEXT NOT NULL, path TEXT NOT NULL, kinds INTEGER NOT NULL, PRIMARY KEY (collection, path)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS folio_generations (collection TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS folio_ascending (collection TEXT NOT NULL, field TEXT NOT NULL, ascends INTEGER NOT NULL, PRIMARY KEY (collection, field)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS folio_text_partitions (collection TEXT NOT NULL, slot INTEGER NOT NULL, value TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (collection, slot, value)) WITHOUT ROWID;
`;

export function openEmbeddedDatabase(file: string): EmbeddedDatabase {
  const sqlite = new Database(file);
  // WAL: readers never wait for the writer. NORMAL: a commit does not flush the WAL file on this thread;
  // the store acknowledges a write once wal-sync has flushed it
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  // checkpoints flush the database file: the reader thread takes them (reader-pool), not this one
  sqlite.pragma('wal_autocheckpoint = 0');
  // once checkpointed, a WAL grown by a bulk write is cut back when it starts over
  sqlite.pragma('journal_size_limit = 16777216');
  // the page cache bounds memory whatever the data size (64 MB)
  sqlite.pragma('cache_size = -65536');
  registerFunctions(sqlite);
  sqlite.exec(CATALOG_SQL);
  // The planner picks between indexes (a sort's, a filter's, the trigram one) by their statistics: sampled,
  // so that keeping them fresh costs milliseconds at any size.
  sqlite.pragma('analysis_limit = 1000');
  sqlite.pragma('optimize = 0x10002');
  /** whether a statement's plan sorts apart (sortsApart), by statement: forgotten when indexes or statistics change */
  const plans = new Map<string, boolean>();
  let writtenSinceAnalysis = 0;
  const noteWrite = (): void => {
    if (++writtenSinceAnalysis < ANALYSE_EVERY) return;
    writtenSinceAnalysis = 0;
    sqlite.pragma('optimize');
    plans.clear();
  };

  const statements = new Map<string, Statement>();
  const statement = (sql: string): Statement => cached(statements, sql, MAX_STATEMENTS, () => sqlite.prepare(sql));
  // opened when first needed: most stores never read while a transaction is open
  let lastCommit: SqliteDatabase | undefined;
  const committedStatements = new Map<string, Statement>();
  const committedStatement = (sql: string): Statement =>
    cached(committedStatements, sql, MAX_STATEMENTS, () => (lastCommit ??= openReadConnection(file, { readonly: true })).prepare(sql));
  const sortsApart = (sql: string, params: readonly unknown[]): boolean =>
    cached(plans, sql, MAX_STATEMENTS, () =>
      (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).some(({ detail }) => detail.includes('TEMP B-TREE')),
    );
  const states = new Map<string, CollectionState>();
  let catalogAhead = false;
  let catalogVersion = 0;
  const catalogChanged = (): void => {
    catalogAhead = true;
    catalogVersion++;
  };
  const textMerges = createTextIndexMerges(sqlite);

  const storedGeneration = (name: string): number =>
    (statement('SELECT n FROM folio_generations WHERE collection = ?').get(name) as { n: number } | undefined)?.n ?? 0;

  function load(): void {
    // a savepoint undone inside an open transaction leaves that transaction's earlier catalog changes in place
    if (!sqlite.inTransaction) catalogAhead = false;
    catalogVersion++;
    for (const state of states.values()) {
      state.created = false;
      state.indexes = [];
      state.textPaths = [];
      state.partitions = new Map();
      state.ascending = new Map();
      state.kinds = new Map();
      // a savepoint undone: the open transaction's earlier writes stay, as do the totals of the last commit
      if (sqlite.inTransaction) state.counts.undo(storedGeneration(state.name));
      else state.counts.reset(storedGeneration(state.name));
    }
    const rows = statement('SELECT name, indexes, text_paths FROM folio_catalog').all() as Array<{ name: string; indexes: string; text_paths: string }>;
    for (const row of rows) {
      const state = states.get(row.name) ?? createCollectionState(row.name, storedGeneration(row.name));
      states.set(row.name, state);
      state.created = true;
      state.indexes = JSON.parse(row.indexes);
      state.textPaths = JSON.parse(row.text_paths);
    }
    for (const row of statement('SELECT collection, path, kinds FROM folio_paths').all() as Array<{ collection: string; path: string; kinds: number }>) {
      states.get(row.collection)?.kinds.set(row.path, row.kinds);
    }
    for (const row of statement('SELECT collection, field FROM folio_ascending WHERE ascends = 1').all() as Array<{ collection: string; field: string }>) {
      const target = states.get(row.collection);
      if (target) target.ascending.set(row.field, lastValue(target, row.field));
    }
    const partitions = statement('SELECT collection, slot, value, n FROM folio_text_partitions').all() as Array<{ collection: string; slot: number; value: string; n: number }>;
    for (const row of partitions) {
      const target = states.get(row.collection)?.partitions;
      if (!target) continue;
      if (!target.has(row.slot)) target.set(row.slot, new Map());
      target.get(row.slot)!.set(row.value, row.n);
    }
  }
  load();

  /** the value of `field` in the last row */
  function lastValue(target: CollectionState, field: string): number | null {
    const row = statement(`SELECT ${extractOf(field, 'doc')} AS v FROM ${quote(target.tables.docs)} ORDER BY k DESC LIMIT 1`).get() as { v: number } | undefined;
    return row?.v ?? null;
  }

  function decideOrder(target: CollectionState, field: string, ascends: boolean): void {
    statement('INSERT OR REPLACE INTO folio_ascending (collection, field, ascends) VALUES (?, ?, ?)').run(target.name, field, ascends ? 1 : 0);
    if (ascends) target.ascending.set(field, lastValue(target, field));
    // Losing the order is not a change the reader threads must wait for (catalogAhead, which has reads outside
    // the open transaction see its writes): a read compiled without the key order is right on any commit, and
    // one compiled with it and answered after this commits is read again (catalogVersion).
    else if (target.ascending.delete(field)) catalogVersion++;
  }

  /** An insert keeps each ascending field ascending, or ends it; a replace that changes one's value ends it. */
  function noteOrder(target: CollectionState, document: StoredDocument, previous?: StoredDocument): void {
    for (const [field, last] of target.ascending) {
      const value = document[field];
      if (previous ? value === previous[field] : typeof value === 'number' && (last === null || value > last)) {
        if (!previous) target.ascending.set(field, value as number);
      } else decideOrder(target, field, false);
    }
  }

  function state(name: string): CollectionState {
    let found = states.get(name);
    if (!found) states.set(name, (found = createCollectionState(name, storedGeneration(name))));
    return found;
  }

  function saveCatalog(target: CollectionState): void {
    statement('INSERT OR REPLACE INTO folio_catalog (name, indexes, text_paths) VALUES (?, ?, ?)').run(
      target.name,
      JSON.stringify(target.indexes),
      JSON.stringify(target.textPaths),
    );
  }

  function create(target: CollectionState): void {
    if (target.created) return;
    const { docs, multikey, text } = target.tables;
    sqlite.exec(`
      CREATE TABLE ${quote(docs)} (k INTEGER PRIMARY KEY, doc BLOB NOT NULL);
      CREATE TABLE ${quote(multikey)} (f TEXT NOT NULL, v, k INTEGER NOT NULL);
      CREATE INDEX ${quote(`${multikey}:fvk`)} ON ${quote(multikey)} (f, v, k);
      CREATE INDEX ${quote(`${multikey}:k`)} ON ${quote(multikey)} (k);
      CREATE VIRTUAL TABLE ${quote(text)} USING fts5 (u, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1');
    `);
    target.created = true;
    catalogChanged();
    saveCatalog(target);
  }

  // A field that starts holding arrays gets multikey entries for the scalars it already holds.
  function backfillMultikey(target: CollectionState, field: string): void {
    const extract = extractOf(field, 'doc')!;
    const type = extract.replace('json_extract', 'json_type');
    statement(
      `INSERT INTO ${quote(target.tables.multikey)} (f, v, k) SELECT ?, CASE ${type} WHEN 'true' THEN x'01' WHEN 'false' THEN x'00' WHEN 'object' THEN x'f0' ELSE ${extract} END, k FROM ${quote(target.tables.docs)} WHERE ${type} IS NOT NULL AND ${type} <> 'array'`,
    ).run(field);
  }

  function noteKinds(target: CollectionState, document: StoredDocument): void {
    for (const { path, before } of collectKinds(document, target.kinds)) {
      catalogChanged();
      const kinds = target.kinds.get(path)!;
      statement('INSERT OR REPLACE INTO folio_paths (collection, path, kinds) VALUES (?, ?, ?)').run(target.name, path, kinds);
      const gainedArray = !path.includes('.') && (before & KIND.array) === 0 && (kinds & KIND.array) !== 0;
      if (gainedArray) backfillMultikey(target, path);
    }
  }

  function addMultikeyEntries(target: CollectionState, key: number, document: StoredDocument): void {
    const insertEntry = statement(`INSERT INTO ${quote(target.tables.multikey)} (f, v, k) VALUES (?, ?, ?)`);
    for (const field of target.multikeyFields()) for (const value of entriesOf(document, field)) insertEntry.run(field, value, key);
  }

  function addEntries(target: CollectionState, key: number, document: StoredDocument): void {
    addMultikeyEntries(target, key, document);
    target.textPaths.forEach((_, slot) => addText(target, key, slot, document));
  }

  /**
   * The number of `document`'s partition of the trigram index of `slot` (0 when it is not split). A new one is
   * numbered when `numbering`, while numbers last; past them, values share partition 0.
   */
  function partitionNumber(target: CollectionState, slot: number, document: StoredDocument, numbering: boolean): number {
    const fields = target.partitionOf(slot);
    if (!fields) return 0;
    const value = partitionValues(fields, document);
    let numbers = target.partitions.get(slot);
    const known = numbers?.get(value);
    if (known !== undefined || !numbering) return known ?? 0;
    if (!numbers) target.partitions.set(slot, (numbers = new Map()));
    if (numbers.size >= MAX_PARTITIONS) return 0;
    const number = numbers.size + 1;
    numbers.set(value, number);
    statement('INSERT INTO folio_text_partitions (collection, slot, value, n) VALUES (?, ?, ?, ?)').run(target.name, slot, value, number);
    // Not a change the reader threads must wait for: no committed entry has the number, so a search of its
    // part finds what the last commit holds, nothing. A read compiled with it and answered after an undo that
    // gives the number to other values is read again (catalogVersion).
    catalogVersion++;
    return number;
  }

  function addText(target: CollectionState, key: number, slot: number, document: StoredDocument): void {
    const value = getPath(document, target.textPaths[slot]);
    if (typeof value !== 'string') return;
    textMerges.written(target);
    const rowid = textRowid(key, slot, partitionNumber(target, slot, document, true));
    statement(`INSERT INTO ${quote(target.tables.text)} (rowid, u) VALUES (?, ?)`).run(rowid, indexedText(value));
  }

  // one rowid at a time: a rowid range made FTS5 walk its whole index (an update took 42 ms at 200,000 documents, 1 ms with equalities)
  function removeText(target: CollectionState, key: number, slot: number, document: StoredDocument): void {
    if (typeof getPath(document, target.textPaths[slot]) !== 'string') return;
    const rowid = textRowid(key, slot, partitionNumber(target, slot, document, false));
    if (statement(`DELETE FROM ${quote(target.tables.text)} WHERE rowid = ?`).run(rowid).changes > 0) textMerges.written(target);
  }

  function removeMultikeyEntries(target: CollectionState, key: number): void {
    statement(`DELETE FROM ${quote(target.tables.multikey)} WHERE k = ?`).run(key);
  }

  function removeEntries(target: CollectionState, key: number, document: StoredDocument): void {
    removeMultikeyEntries(target, key);
    for (let slot = 0; slot < target.textPaths.length; slot++) removeText(target, key, slot, document);
  }

  /**
   * A replaced document's index entries. Its trigram entries are rewritten only for the texts that changed:
   * FTS5 answers a delete with a tombstone that every later search checks its matches against, and searches
   * at 200,000 articles took up to 3× longer after a few hundred deletes (inserts alone cost nothing). An
   * update of a document's other fields (views, relations, publication) no longer deletes any, unless it moves
   * the document to another partition.
   */
  function replaceEntries(target: CollectionState, key: number, document: StoredDocument, previous: StoredDocument): void {
    removeMultikeyEntries(target, key);
    addMultikeyEntries(target, key, document);
    target.textPaths.forEach((path, slot) => {
      const value = getPath(document, path);
      const fields = target.partitionOf(slot);
      const samePart = !fields || partitionValues(fields, document) === partitionValues(fields, previous);
      if (typeof value === 'string' && value === getPath(previous, path) && samePart) return;
      removeText(target, key, slot, previous);
      addText(target, key, slot, document);
    });
  }

  function uniqueViolation(target: CollectionState, error: unknown): never {
    // duck-typed: under jest, a native addon's errors may come from another realm than this module's Error
    const message = String((error as { message?: unknown } | null)?.message ?? '');
    const match = /UNIQUE constraint failed: index '([^']*)'/.exec(message);
    const spec = match && target.indexes.find((index) => uniqueIndexName(target, index) === match[1]);
    if (spec) throw new UniqueConstraintError(target.name, spec.keys.map(([field]) => field));
    throw error;
  }

  /** the stored document of `key`, as SQL sees it */
  function stored(target: CollectionState, key: number): StoredDocument | undefined {
    const row = statement(`SELECT json(doc) AS doc FROM ${quote(target.tables.docs)} WHERE k = ?`).get(key) as { doc: string } | undefined;
    return row && JSON.parse(row.doc);
  }

  /**
   * `run` writes the row whose document was `before` and is `after` (the JSON text stored): the collection's
   * remembered totals move by the change.
   */
  function writeRow(target: CollectionState, run: () => void, before: StoredDocument | undefined, after: string | undefined): void {
    try {
      run();
    } catch (error) {
      uniqueViolation(target, error);
    }
    const generation = target.counts.written(before, after);
    statement('INSERT INTO folio_generations (collection, n) VALUES (?, ?) ON CONFLICT (collection) DO UPDATE SET n = excluded.n').run(target.name, generation);
    noteWrite();
  }

  function addExpressionIndexes(target: CollectionState, spec: NormalizedIndexSpec): void {
    const expressions = spec.keys.map(([field]) => extractOf(field, 'doc'));
    if (!expressions.every((expression) => expression !== undefined)) {
      if (spec.unique) throw new Error(`index ${spec.name} on ${target.name}: field names with quotes or backslashes cannot be indexed`);
      return;
    }
    const table = quote(target.tables.docs);
    const columns = spec.keys.map(([, direction], i) => `${expressions[i]} ${direction === 1 ? 'ASC' : 'DESC'}`);
    sqlite.exec(`CREATE INDEX IF NOT EXISTS ${quote(`${target.tables.docs}:${spec.name}`)} ON ${table} (${columns.join(', ')})`);
    const firstCompound = !spec.unique && spec.keys.length > 1 && !target.indexes.some((index) => !index.unique && !index.text && index.keys.length > 1);
    if (firstCompound) {
      // The same fields led by the row key: rows found through another index (trigram, multikey) are
      // checked against them, and sorted by them, from this index alone, without reading the documents.
      sqlite.exec(`CREATE INDEX IF NOT EXISTS ${quote(`${target.tables.docs}:rows`)} ON ${table} (k, ${expressions.join(', ')})`);
    }
    if (!spec.unique) return;
    // a missing or null key counts as one value (MongoDB), where SQLite's NULLs would all differ
    const keys = expressions.map((expression, i) => (i === 0 ? expression : `ifnull(${expression}, x'00')`));
    try {
      sqlite.exec(`CREATE UNIQUE INDEX ${quote(uniqueIndexName(target, spec))} ON ${table} (${keys.join(', ')}) WHERE ${expressions[0]} IS NOT NULL`);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new UniqueConstraintError(target.name, spec.keys.map(([field]) => field));
      throw error;
    }
  }

  /** `visit` for every document of the collection, 1,000 at a time. */
  function eachDocument(target: CollectionState, visit: (key: number, document: StoredDocument) => void): void {
    const page = statement(`SELECT k, json(doc) AS doc FROM ${quote(target.tables.docs)} WHERE k > ? ORDER BY k LIMIT 1000`);
    for (let after = 0; ; ) {
      const rows = page.all(after) as Array<{ k: number; doc: string }>;
      if (rows.length === 0) return;
      for (const row of rows) visit(row.k, JSON.parse(row.doc));
      after = rows[rows.length - 1].k;
    }
  }

  /** A trigram index of `path`, filled from the documents already there (`spec` is in the catalog already). */
  function addTextIndex(target: CollectionState, path: string): void {
    if (target.textPaths.includes(path)) return;
    if (target.textPaths.length >= MAX_TEXT_PATHS) throw new Error(`at most ${MAX_TEXT_PATHS} text indexes per collection (${target.name})`);
    const slot = target.textPaths.push(path) - 1;
    eachDocument(target, (key, document) => addText(target, key, slot, document));
  }

  /** Rows past which writing a text index's entries again is told on stderr: it takes seconds. */
  const TOLD_REPARTITION = 20000;

  return {
    sqlite,
    state,
    catalogNames: () => [...states.values()].filter((entry) => entry.created).map((entry) => entry.name),
    statement,
    committedStatement,
    sortsApart,
    textIndexesDue: () => textMerges.due(states.values()),
    fragmentedTextIndexes: () => textMerges.fragmented(states.values()),
    insert(target, document) {
      create(target);
      noteKinds(target, document);
      noteOrder(target, document);
      const text = JSON.stringify(document);
      writeRow(
        target,
        () => {
          const { lastInsertRowid } = statement(`INSERT INTO ${quote(target.tables.docs)} (doc) VALUES (jsonb(?))`).run(text);
          addEntries(target, Number(lastInsertRowid), document);
        },
        undefined,
        text,
      );
    },
    replace(target, key, document, previous) {
      noteKinds(target, document);
      noteOrder(target, document, previous);
      const text = JSON.stringify(document);
      writeRow(
        target,
        () => {
          statement(`UPDATE ${quote(target.tables.docs)} SET doc = jsonb(?) WHERE k = ?`).run(text, key);
          replaceEntries(target, key, document, previous);
        },
        previous,
        text,
      );
    },
    remove(target, key) {
      // a delete reads keys only: the document is read here, for the totals
      const previous = stored(target, key);
      writeRow(
        target,
        () => {
          statement(`DELETE FROM ${quote(target.tables.docs)} WHERE k = ?`).run(key);
          if (previous) removeEntries(target, key, previous);
        },
        previous,
        undefined,
      );
    },
    addIndex(target, input) {
      create(target);
      const spec = normalizeIndexSpec(input);
      // first: a text index's entries are written by its partition
      target.indexes.push(spec);
      if (spec.text) addTextIndex(target, spec.keys[0][0]);
      else addExpressionIndexes(target, spec);
      plans.clear();
      catalogChanged();
      saveCatalog(target);
    },
    trackOrder(target, input) {
      const spec = normalizeIndexSpec(input);
      const field = spec.keys[0][0];
      const extract = extractOf(field, 'doc');
      if (!spec.unique || spec.keys.length !== 1 || field.includes('.') || !extract) return;
      if (statement('SELECT 1 FROM folio_ascending WHERE collection = ? AND field = ?').get(target.name, field)) return;
      const type = extract.replace('json_extract', 'json_type');
      const outOfOrder = `SELECT count(*) AS n FROM (SELECT ${type} AS t, ${extract} AS v, lag(${extract}) OVER (ORDER BY k) AS p FROM ${quote(target.tables.docs)}) WHERE t IS NULL OR t NOT IN ('integer', 'real') OR v <= p`;
      const ascends = (read: Statement): boolean => (read.get() as { n: number }).n === 0;
      // a table this transaction created holds nothing in the last commit
      const committedRows = (): boolean => committedStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(target.tables.docs) !== undefined;
      // Of the rows this transaction sees and of the last commit's, which reads outside it see: asked inside a
      // caller's transaction that removed a row out of order, this one's alone had reads outside it sort in key
      // order rows that were not. Ascending in one only, it is taken as not ascending, for good.
      const inLastCommit = !sqlite.inTransaction || !committedRows() || ascends(committedStatement(outOfOrder));
      decideOrder(target, field, ascends(statement(outOfOrder)) && inLastCommit);
    },
    repartition(target, input) {
      const spec = normalizeIndexSpec(input);
      const at = target.indexes.findIndex((index) => index.text && index.keys[0][0] === spec.keys[0][0]);
      if (at < 0 || samePartition(target.indexes[at], spec)) return;
      const slot = target.textPaths.indexOf(spec.keys[0][0]);
      const { n } = statement(`SELECT count(*) AS n FROM ${quote(target.tables.docs)}`).get() as { n: number };
      if (n >= TOLD_REPARTITION) process.stderr.write(`folio: writing the text index ${spec.name} of ${target.name} again, by ${JSON.stringify(spec.partition ?? [])} (${n} documents, once)…\n`);
      eachDocument(target, (key, document) => removeText(target, key, slot, document));
      target.indexes[at] = spec;
      target.partitions.delete(slot);
      statement('DELETE FROM folio_text_partitions WHERE collection = ? AND slot = ?').run(target.name, slot);
      eachDocument(target, (key, document) => addText(target, key, slot, document));
      // a search with its page of the index as these writes leave it (the old entries' tombstones, segments by
      // the thousand) took 1.35–1.47 ms, of the merged one 0.99–1.01 ms; the merge is 1 s at 200,000 articles, once
      const text = quote(target.tables.text);
      sqlite.prepare(`INSERT INTO ${text} (${text}) VALUES ('optimize')`).run();
      textMerges.merged(target);
      catalogChanged();
      saveCatalog(target);
    },
    // a change made outside the store's own transactions (a migration's) is committed once none is open
    catalogAhead: () => catalogAhead && sqlite.inTransaction,
    committed: () => {
      catalogAhead = false;
      for (const state of states.values()) state.counts.committed();
    },
    catalogVersion: () => catalogVersion,
    reload: load,
    close: () => {
      lastCommit?.close();
      sqlite.close();
    },
  };
}

function uniqueIndexName(target: CollectionState, spec: NormalizedIndexSpec): string {
  return `${target.tables.docs}:${spec.name}:unique`;
}
