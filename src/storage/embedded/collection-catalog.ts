import type { StoredDocument } from '../types';
import { createCollectionState, type CollectionState } from './collection-state';
import { extractOf } from './compile-filter';
import { catalogChanged, quote, statement, type DatabaseState } from './database-state';
import { lastValue } from './key-order';
import { collectKinds, KIND } from './path-kinds';
import { loggedWrites } from './write-log';

const storedGeneration = (db: DatabaseState, name: string): number =>
  (statement(db, 'SELECT n FROM folio_generations WHERE collection = ?').get(name) as { n: number } | undefined)?.n ?? 0;

/** plays another worker's writes since this process's last commit onto the remembered totals: whether the log held them all */
function followLoggedWrites(db: DatabaseState, state: CollectionState, stored: number): boolean {
  const { counts } = state;
  const logged = db.logsWrites && counts.generation === counts.lastCommit ? loggedWrites(db, state.name, counts.generation, stored) : undefined;
  if (!logged) return false;
  for (const { before, after } of logged) counts.written(before, after);
  counts.committed();
  return true;
}

/**
 * Every collection's state as the catalog tables hold it (EmbeddedDatabase `reload`). A collection whose rows
 * no write has changed since this process last committed (its stored generation is still the one its totals
 * count up to) keeps its remembered totals and held rows: another worker's commit reloads the catalog, and with
 * 20 writes a second to the articles, two workers forgot the tags', categories' and authors' ten times a second.
 */
export function loadCatalog(db: DatabaseState): void {
  const { sqlite, states } = db;
  // a savepoint undone inside an open transaction leaves that transaction's earlier catalog changes in place
  if (!sqlite.inTransaction) db.catalogAhead = false;
  db.catalogVersion++;
  for (const state of states.values()) {
    state.created = false;
    state.indexes = [];
    state.textPaths = [];
    state.partitions = new Map();
    state.ascending = new Map();
    state.kinds = new Map();
    const stored = storedGeneration(db, state.name);
    if (sqlite.inTransaction) {
      // a savepoint undone: the open transaction's earlier writes stay, as do the totals of the last commit
      state.held.clear();
      state.counts.undo(stored);
    } else if (stored !== state.counts.generation || stored !== state.counts.lastCommit) {
      // written by another process, or by a transaction of this one that was rolled back
      state.held.clear();
      if (!followLoggedWrites(db, state, stored)) state.counts.reset(stored);
    }
  }
  const rows = statement(db, 'SELECT name, indexes, text_paths FROM folio_catalog').all() as Array<{ name: string; indexes: string; text_paths: string }>;
  for (const row of rows) {
    const state = states.get(row.name) ?? createCollectionState(row.name, storedGeneration(db, row.name));
    states.set(row.name, state);
    state.created = true;
    state.indexes = JSON.parse(row.indexes);
    state.textPaths = JSON.parse(row.text_paths);
  }
  for (const row of statement(db, 'SELECT collection, path, kinds FROM folio_paths').all() as Array<{ collection: string; path: string; kinds: number }>) {
    states.get(row.collection)?.kinds.set(row.path, row.kinds);
  }
  for (const row of statement(db, 'SELECT collection, field FROM folio_ascending WHERE ascends = 1').all() as Array<{ collection: string; field: string }>) {
    const target = states.get(row.collection);
    if (target) target.ascending.set(row.field, lastValue(db, target, row.field));
  }
  const partitions = statement(db, 'SELECT collection, slot, value, n FROM folio_text_partitions').all() as Array<{ collection: string; slot: number; value: string; n: number }>;
  for (const row of partitions) {
    const target = states.get(row.collection)?.partitions;
    if (!target) continue;
    if (!target.has(row.slot)) target.set(row.slot, new Map());
    target.get(row.slot)!.set(row.value, row.n);
  }
}

export function collectionState(db: DatabaseState, name: string): CollectionState {
  let found = db.states.get(name);
  if (!found) db.states.set(name, (found = createCollectionState(name, storedGeneration(db, name))));
  return found;
}

export function saveCatalog(db: DatabaseState, target: CollectionState): void {
  statement(db, 'INSERT OR REPLACE INTO folio_catalog (name, indexes, text_paths) VALUES (?, ?, ?)').run(
    target.name,
    JSON.stringify(target.indexes),
    JSON.stringify(target.textPaths),
  );
}

/** The collection's tables, unless they exist. */
export function createTables(db: DatabaseState, target: CollectionState): void {
  if (target.created) return;
  const { docs, multikey, text } = target.tables;
  db.sqlite.exec(`
    CREATE TABLE ${quote(docs)} (k INTEGER PRIMARY KEY, doc BLOB NOT NULL);
    CREATE TABLE ${quote(multikey)} (f TEXT NOT NULL, v, k INTEGER NOT NULL);
    CREATE INDEX ${quote(`${multikey}:fvk`)} ON ${quote(multikey)} (f, v, k);
    CREATE INDEX ${quote(`${multikey}:k`)} ON ${quote(multikey)} (k);
    CREATE VIRTUAL TABLE ${quote(text)} USING fts5 (u, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1');
  `);
  target.created = true;
  catalogChanged(db);
  saveCatalog(db, target);
}

// A field that starts holding arrays gets multikey entries for the scalars it already holds.
function backfillMultikey(db: DatabaseState, target: CollectionState, field: string): void {
  const extract = extractOf(field, 'doc')!;
  const type = extract.replace('json_extract', 'json_type');
  statement(
    db,
    `INSERT INTO ${quote(target.tables.multikey)} (f, v, k) SELECT ?, CASE ${type} WHEN 'true' THEN x'01' WHEN 'false' THEN x'00' WHEN 'object' THEN x'f0' ELSE ${extract} END, k FROM ${quote(target.tables.docs)} WHERE ${type} IS NOT NULL AND ${type} <> 'array'`,
  ).run(field);
}

export function noteKinds(db: DatabaseState, target: CollectionState, document: StoredDocument): void {
  for (const { path, before } of collectKinds(document, target.kinds)) {
    catalogChanged(db);
    const kinds = target.kinds.get(path)!;
    statement(db, 'INSERT OR REPLACE INTO folio_paths (collection, path, kinds) VALUES (?, ?, ?)').run(target.name, path, kinds);
    const gainedArray = !path.includes('.') && (before & KIND.array) === 0 && (kinds & KIND.array) !== 0;
    if (gainedArray) backfillMultikey(db, target, path);
  }
}
