import Database, { type Database as SqliteDatabase, type Statement } from 'better-sqlite3';
import type { IndexSpec, StoredDocument } from '../types';
import { collectionState, loadCatalog } from './collection-catalog';
import { addIndex, dropIndex, repartition } from './collection-indexes';
import type { CollectionState } from './collection-state';
import { committedStatement, groupsApart, sortsApart, statement, type DatabaseState } from './database-state';
import { trackOrder } from './key-order';
import { insertRow, removeRow, replaceRow } from './row-writes';
import { registerFunctions } from './sql-functions';
import { createTextIndexMerges } from './text-index-merges';

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
  /** whether SQLite's plan for `sql` groups its rows apart, in a temporary b-tree; remembered by statement */
  groupsApart(sql: string, params: readonly unknown[]): boolean;
  insert(state: CollectionState, document: StoredDocument): void;
  /** `previous`: the document the row holds now, as the caller read it */
  replace(state: CollectionState, key: number, document: StoredDocument, previous: StoredDocument): void;
  remove(state: CollectionState, key: number): void;
  addIndex(state: CollectionState, spec: IndexSpec): void;
  /** removes a plain index createIndex made (`name`), in the catalog too */
  dropIndex(state: CollectionState, name: string): void;
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

const CATALOG_SQL = `
CREATE TABLE IF NOT EXISTS folio_catalog (name TEXT PRIMARY KEY, indexes TEXT NOT NULL, text_paths TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS folio_paths (collection TEXT NOT NULL, path TEXT NOT NULL, kinds INTEGER NOT NULL, PRIMARY KEY (collection, path)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS folio_generations (collection TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS folio_ascending (collection TEXT NOT NULL, field TEXT NOT NULL, ascends INTEGER NOT NULL, PRIMARY KEY (collection, field)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS folio_write_log (collection TEXT NOT NULL, n INTEGER NOT NULL, before TEXT, after TEXT, PRIMARY KEY (collection, n));
CREATE TABLE IF NOT EXISTS folio_text_partitions (collection TEXT NOT NULL, slot INTEGER NOT NULL, value TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (collection, slot, value)) WITHOUT ROWID;
`;

/** `logsWrites`: the file is shared by a worker group's processes (DatabaseState) */
export function openEmbeddedDatabase(file: string, { logsWrites = false } = {}): EmbeddedDatabase {
  const sqlite = new Database(file);
  // WAL: readers never wait for the writer. NORMAL: a commit does not flush the WAL file on this thread;
  // the store acknowledges a write once wal-sync has flushed it
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  // checkpoints flush the database file: the reader thread takes them (reader-pool), not this one
  sqlite.pragma('wal_autocheckpoint = 0');
  // once checkpointed, a WAL grown by a bulk write is cut back when it starts over
  sqlite.pragma('journal_size_limit = 16777216');
  // The page cache bounds memory whatever the data size: 16 MB, as each reader thread's. At 64 MB it held 50-60 MB
  // of a process under the memory probe, and at 50,000 articles with 20 writes a second 16 MB answered as fast
  // (reads -1.9 to +4.9 %, same-run benchmark, 4 rounds; the REST create +45 %, within the spread of its runs,
  // docs/speed.md): pages missed here come from the OS's file cache.
  sqlite.pragma('cache_size = -16384');
  registerFunctions(sqlite);
  sqlite.exec(CATALOG_SQL);
  // The planner picks between indexes (a sort's, a filter's, the trigram one) by their statistics: sampled,
  // so that keeping them fresh costs milliseconds at any size.
  sqlite.pragma('analysis_limit = 1000');
  sqlite.pragma('optimize = 0x10002');
  const db: DatabaseState = {
    file,
    sqlite,
    statements: new Map(),
    lastCommit: undefined,
    committedStatements: new Map(),
    plans: new Map(),
    writtenSinceAnalysis: 0,
    states: new Map(),
    catalogAhead: false,
    catalogVersion: 0,
    textMerges: createTextIndexMerges(sqlite),
    logsWrites,
  };
  loadCatalog(db);
  return {
    sqlite,
    state: (name) => collectionState(db, name),
    catalogNames: () => [...db.states.values()].filter((entry) => entry.created).map((entry) => entry.name),
    statement: (sql) => statement(db, sql),
    committedStatement: (sql) => committedStatement(db, sql),
    sortsApart: (sql, params) => sortsApart(db, sql, params),
    groupsApart: (sql, params) => groupsApart(db, sql, params),
    textIndexesDue: () => db.textMerges.due(db.states.values()),
    fragmentedTextIndexes: () => db.textMerges.fragmented(db.states.values()),
    insert: (target, document) => insertRow(db, target, document),
    replace: (target, key, document, previous) => replaceRow(db, target, key, document, previous),
    remove: (target, key) => removeRow(db, target, key),
    addIndex: (target, input) => addIndex(db, target, input),
    dropIndex: (target, name) => dropIndex(db, target, name),
    trackOrder: (target, input) => trackOrder(db, target, input),
    repartition: (target, input) => repartition(db, target, input),
    // a change made outside the store's own transactions (a migration's) is committed once none is open
    catalogAhead: () => db.catalogAhead && sqlite.inTransaction,
    committed: () => {
      db.catalogAhead = false;
      for (const state of db.states.values()) state.counts.committed();
    },
    catalogVersion: () => db.catalogVersion,
    reload: () => loadCatalog(db),
    close: () => {
      db.lastCommit?.close();
      sqlite.close();
    },
  };
}
