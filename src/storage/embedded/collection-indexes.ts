import { normalizeIndexSpec, samePartition, type NormalizedIndexSpec } from '../index-spec';
import type { IndexSpec, StoredDocument } from '../types';
import { UniqueConstraintError } from '../types';
import { createTables, saveCatalog } from './collection-catalog';
import type { CollectionState } from './collection-state';
import { extractOf } from './compile-filter';
import { catalogChanged, quote, statement, type DatabaseState } from './database-state';
import { addText, removeText } from './index-entries';
import { MAX_TEXT_PATHS } from './text-rowid';

/** Rows past which writing an index's entries is told on stderr: it takes seconds. */
const TOLD_ROWS = 20000;

/** the collection's rows; past TOLD_ROWS, `what` is told on stderr first */
function tellLongWrite(db: DatabaseState, target: CollectionState, what: string): number {
  const { n } = statement(db, `SELECT count(*) AS n FROM ${quote(target.tables.docs)}`).get() as { n: number };
  if (n >= TOLD_ROWS) process.stderr.write(`folio: ${what} (${n} documents, once)…\n`);
  return n;
}

export function uniqueIndexName(target: CollectionState, spec: NormalizedIndexSpec): string {
  return `${target.tables.docs}:${spec.name}:unique`;
}

function addExpressionIndexes(db: DatabaseState, target: CollectionState, spec: NormalizedIndexSpec): void {
  const { sqlite } = db;
  const expressions = spec.keys.map(([field]) => extractOf(field, 'doc'));
  if (!expressions.every((expression) => expression !== undefined)) {
    if (spec.unique) throw new Error(`index ${spec.name} on ${target.name}: field names with quotes or backslashes cannot be indexed`);
    return;
  }
  const table = quote(target.tables.docs);
  const columns = spec.keys.map(([, direction], i) => `${expressions[i]} ${direction === 1 ? 'ASC' : 'DESC'}`);
  const rows = tellLongWrite(db, target, `building the index ${spec.name} of ${target.name}`);
  const index = quote(`${target.tables.docs}:${spec.name}`);
  sqlite.exec(`CREATE INDEX IF NOT EXISTS ${index} ON ${table} (${columns.join(', ')})`);
  // Without statistics SQLite guesses: right after six indexes were built at start over 100,000 documents, REST's
  // list answered 261-296 a second, 1,010-1,412 with them analysed. An empty collection's statistics are left to
  // the next optimize (database-state noteWrite), once it holds documents.
  if (rows > 0) sqlite.exec(`ANALYZE ${index}`);
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
function eachDocument(db: DatabaseState, target: CollectionState, visit: (key: number, document: StoredDocument) => void): void {
  const page = statement(db, `SELECT k, json(doc) AS doc FROM ${quote(target.tables.docs)} WHERE k > ? ORDER BY k LIMIT 1000`);
  for (let after = 0; ; ) {
    const rows = page.all(after) as Array<{ k: number; doc: string }>;
    if (rows.length === 0) return;
    for (const row of rows) visit(row.k, JSON.parse(row.doc));
    after = rows[rows.length - 1].k;
  }
}

/** A trigram index of `path`, filled from the documents already there (`spec` is in the catalog already). */
function addTextIndex(db: DatabaseState, target: CollectionState, path: string): void {
  if (target.textPaths.includes(path)) return;
  if (target.textPaths.length >= MAX_TEXT_PATHS) throw new Error(`at most ${MAX_TEXT_PATHS} text indexes per collection (${target.name})`);
  const slot = target.textPaths.push(path) - 1;
  eachDocument(db, target, (key, document) => addText(db, target, key, slot, document));
}

/** EmbeddedDatabase `addIndex` */
export function addIndex(db: DatabaseState, target: CollectionState, input: IndexSpec): void {
  createTables(db, target);
  const spec = normalizeIndexSpec(input);
  // first: a text index's entries are written by its partition
  target.indexes.push(spec);
  if (spec.text) addTextIndex(db, target, spec.keys[0][0]);
  else addExpressionIndexes(db, target, spec);
  db.plans.clear();
  catalogChanged(db);
  saveCatalog(db, target);
}

/** EmbeddedDatabase `dropIndex` */
export function dropIndex(db: DatabaseState, target: CollectionState, name: string): void {
  const at = target.indexes.findIndex((index) => index.name === name);
  if (at < 0) return;
  db.sqlite.exec(`DROP INDEX IF EXISTS ${quote(`${target.tables.docs}:${name}`)}`);
  target.indexes.splice(at, 1);
  db.plans.clear();
  catalogChanged(db);
  saveCatalog(db, target);
}

/** EmbeddedDatabase `repartition` */
export function repartition(db: DatabaseState, target: CollectionState, input: IndexSpec): void {
  const spec = normalizeIndexSpec(input);
  const at = target.indexes.findIndex((index) => index.text && index.keys[0][0] === spec.keys[0][0]);
  if (at < 0 || samePartition(target.indexes[at], spec)) return;
  const slot = target.textPaths.indexOf(spec.keys[0][0]);
  tellLongWrite(db, target, `writing the text index ${spec.name} of ${target.name} again, by ${JSON.stringify(spec.partition ?? [])}`);
  eachDocument(db, target, (key, document) => removeText(db, target, key, slot, document));
  target.indexes[at] = spec;
  target.partitions.delete(slot);
  statement(db, 'DELETE FROM folio_text_partitions WHERE collection = ? AND slot = ?').run(target.name, slot);
  eachDocument(db, target, (key, document) => addText(db, target, key, slot, document));
  // a search with its page of the index as these writes leave it (the old entries' tombstones, segments by
  // the thousand) took 1.35–1.47 ms, of the merged one 0.99–1.01 ms; the merge is 1 s at 200,000 articles, once
  const text = quote(target.tables.text);
  db.sqlite.prepare(`INSERT INTO ${text} (${text}) VALUES ('optimize')`).run();
  db.textMerges.merged(target);
  catalogChanged(db);
  saveCatalog(db, target);
}
