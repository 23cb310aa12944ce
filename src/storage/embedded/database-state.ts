import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { CollectionState } from './collection-state';
import { openReadConnection } from './read-connection';
import { cached } from './sql-functions';
import type { TextIndexMerges } from './text-index-merges';

/** What the parts of the embedded database (embedded-database) share: its connections, their caches, the catalog in memory. */
export interface DatabaseState {
  readonly file: string;
  readonly sqlite: SqliteDatabase;
  readonly statements: Map<string, Statement>;
  /** opened when first needed: most stores never read while a transaction is open */
  lastCommit: SqliteDatabase | undefined;
  readonly committedStatements: Map<string, Statement>;
  /** what a statement's plan does (sortsApart, groupsApart), by statement: forgotten when indexes or statistics change */
  readonly plans: Map<string, boolean>;
  writtenSinceAnalysis: number;
  readonly states: Map<string, CollectionState>;
  catalogAhead: boolean;
  catalogVersion: number;
  readonly textMerges: TextIndexMerges;
  /**
   * one of a worker group's processes on the file: each row written is logged with its documents before and after
   * (folio_write_log), so that the others move their remembered totals by it instead of counting them again
   */
  readonly logsWrites: boolean;
}

export const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const MAX_STATEMENTS = 500;
/** documents written between refreshes of the planner's statistics */
const ANALYSE_EVERY = 5000;

export const statement = (db: DatabaseState, sql: string): Statement => cached(db.statements, sql, MAX_STATEMENTS, () => db.sqlite.prepare(sql));

export const committedStatement = (db: DatabaseState, sql: string): Statement =>
  cached(db.committedStatements, sql, MAX_STATEMENTS, () => (db.lastCommit ??= openReadConnection(db.file, { readonly: true })).prepare(sql));

const planSays = (db: DatabaseState, sql: string, params: readonly unknown[], phrase: string): boolean =>
  cached(db.plans, `${phrase}\n${sql}`, MAX_STATEMENTS, () =>
    (db.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).some(({ detail }) => detail.includes(phrase)),
  );

export const sortsApart = (db: DatabaseState, sql: string, params: readonly unknown[]): boolean => planSays(db, sql, params, 'TEMP B-TREE');

/** whether SQLite groups the rows of `sql` apart, in a temporary b-tree, instead of in the order an index gives them */
export const groupsApart = (db: DatabaseState, sql: string, params: readonly unknown[]): boolean => planSays(db, sql, params, 'TEMP B-TREE FOR GROUP BY');

export function noteWrite(db: DatabaseState): void {
  if (++db.writtenSinceAnalysis < ANALYSE_EVERY) return;
  db.writtenSinceAnalysis = 0;
  db.sqlite.pragma('optimize');
  db.plans.clear();
}

export function catalogChanged(db: DatabaseState): void {
  db.catalogAhead = true;
  db.catalogVersion++;
}
