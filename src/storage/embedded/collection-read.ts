import type { Statement } from 'better-sqlite3';
import { assertSafeFilter } from '../filter-guard';
import type { Filter, StoredDocument } from '../types';
import type { CollectionState } from './collection-state';
import { compileSelection, type Selection } from './compile-filter';
import { readDocumentRows, type DocumentColumn, type DocumentRow } from './document-column';
import { quote } from './database-state';
import type { EmbeddedDatabase } from './embedded-database';
import { projectDocument } from './project-document';
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
  /** reads of a small collection since its last commit after which its rows are held in memory (read-held) */
  readonly holdAfterReads: number;
}

/** What the parts of a collection (embedded-collection) share: its name and its store. */
export interface CollectionContext {
  readonly name: string;
  readonly store: EmbeddedStoreAccess;
}

/** What a read works with: the database, the collection's state, the filter compiled against it (once per call). */
export interface Read {
  database: EmbeddedDatabase;
  state: CollectionState;
  filter: Filter;
  /** `FROM … WHERE …` */
  selection: Selection;
  /** the catalog's version it was compiled against */
  version: number;
}

export interface Row {
  k: number;
  doc: string;
}

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
export const limitSql = (limit: number | undefined): string => `LIMIT ${limit === undefined || !Number.isFinite(limit) ? -1 : Math.trunc(limit)}`;

export const selectionOf = (state: CollectionState, filter: Filter): Selection => {
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
export const select = <T>(context: CollectionContext, database: EmbeddedDatabase, sql: string, params: readonly unknown[], heavy: boolean | undefined, here = false): Promise<T[]> | T[] =>
  run<T>(context, database, sql, params, heavy, here, undefined);

/** select's rows of a statement whose `doc` column is a document's JSON text, counted where they are read and answered parsed (document-column) */
export const selectDocuments = (
  context: CollectionContext,
  database: EmbeddedDatabase,
  sql: string,
  params: readonly unknown[],
  heavy: boolean | undefined,
  here: boolean,
  documents: DocumentColumn,
): Promise<DocumentRow[]> | DocumentRow[] => run<DocumentRow>(context, database, sql, params, heavy, here, documents);

function run<T>(
  { store }: CollectionContext,
  database: EmbeddedDatabase,
  sql: string,
  params: readonly unknown[],
  heavy: boolean | undefined,
  here: boolean,
  documents: DocumentColumn | undefined,
): Promise<T[]> | T[] {
  if (!here && store.readersSeeCatalog()) {
    if (heavy) return store.readers().all<T>(sql, params, documents);
    const apart = database.sqlite.inTransaction ? undefined : store.readers().allIfFree<T>(sql, params, documents);
    if (apart) return apart;
  }
  const statement = store.statementHere(sql);
  return (documents ? readDocumentRows(statement, params, documents, 0) : statement.all(...params)) as T[];
}

export function readOf({ name, store }: CollectionContext, filter: Filter): Read {
  const database = store.database();
  const state = database.state(name);
  return { database, state, filter, selection: selectionOf(state, filter), version: database.catalogVersion() };
}

/**
 * `read` answered by `readOnce`, compiled and answered again while the catalog changed meanwhile: its SQL may
 * name what no longer holds (a text index's partition numbered again, a field that stopped ascending). Apart up
 * to MAX_READS_APART times, then here (`here`), where nothing changes between compiling and reading. Each read
 * counts against the operation's allowance, the ones set aside too: such changes are rare, and the count errs
 * toward refusing.
 */
export async function readAgainIfChanged<T>(context: CollectionContext, first: Read, readOnce: (read: Read, here: boolean) => Promise<T> | T): Promise<T> {
  for (let read = first, reads = 1; ; read = readOf(context, read.filter), reads++) {
    const here = reads > MAX_READS_APART;
    const found = await readOnce(read, here);
    if (here || read.database.catalogVersion() === read.version) return found;
  }
}

/**
 * The rows of `keysSql` (a column `k`, in the order it gives them, which has an OFFSET: SQLite does not flatten it
 * into the outer query, so a sort reads no document) with their documents, in one statement: on the thread that
 * runs the keys' statement, from its snapshot. Read apart (the keys on a reader thread, then their documents
 * wherever a short read goes), the documents were read on the main thread whenever every reader was busy with a
 * scan: under 50 searches at once at 50,000 articles, 9 % of the main thread.
 */
export const withDocuments = (keysSql: string, table: string): string => `SELECT p.k AS k, (SELECT json(doc) FROM ${table} WHERE k = p.k) AS doc FROM (${keysSql}) AS p`;

export const documentsOf = (found: DocumentRow[], projection: string[] | undefined): StoredDocument[] =>
  found.map((row) => (projection ? projectDocument(row.doc, projection) : row.doc));
