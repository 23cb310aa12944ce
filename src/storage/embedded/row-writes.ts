import type { StoredDocument } from '../types';
import { UniqueConstraintError } from '../types';
import { createTables, noteKinds } from './collection-catalog';
import { uniqueIndexName } from './collection-indexes';
import type { CollectionState } from './collection-state';
import { noteWrite, quote, statement, type DatabaseState } from './database-state';
import { addEntries, removeEntries, replaceEntries } from './index-entries';
import { noteOrder } from './key-order';
import { logWrite } from './write-log';

function uniqueViolation(target: CollectionState, error: unknown): never {
  // duck-typed: under jest, a native addon's errors may come from another realm than this module's Error
  const message = String((error as { message?: unknown } | null)?.message ?? '');
  const match = /UNIQUE constraint failed: index '([^']*)'/.exec(message);
  const spec = match && target.indexes.find((index) => uniqueIndexName(target, index) === match[1]);
  if (spec) throw new UniqueConstraintError(target.name, spec.keys.map(([field]) => field));
  throw error;
}

/** the stored document of `key`, as SQL sees it */
function stored(db: DatabaseState, target: CollectionState, key: number): StoredDocument | undefined {
  const row = statement(db, `SELECT json(doc) AS doc FROM ${quote(target.tables.docs)} WHERE k = ?`).get(key) as { doc: string } | undefined;
  return row && JSON.parse(row.doc);
}

/**
 * `run` writes the row whose document was `before` and is `after` (the JSON text stored): the collection's
 * remembered totals move by the change.
 */
function writeRow(db: DatabaseState, target: CollectionState, run: () => void, before: StoredDocument | undefined, after: string | undefined): void {
  try {
    run();
  } catch (error) {
    uniqueViolation(target, error);
  }
  const generation = target.counts.written(before, after);
  statement(db, 'INSERT INTO folio_generations (collection, n) VALUES (?, ?) ON CONFLICT (collection) DO UPDATE SET n = excluded.n').run(target.name, generation);
  if (db.logsWrites && !target.counts.inBulk) logWrite(db, target.name, generation, before, after);
  noteWrite(db);
}

export function insertRow(db: DatabaseState, target: CollectionState, document: StoredDocument): void {
  createTables(db, target);
  noteKinds(db, target, document);
  noteOrder(db, target, document);
  const text = JSON.stringify(document);
  writeRow(
    db,
    target,
    () => {
      const { lastInsertRowid } = statement(db, `INSERT INTO ${quote(target.tables.docs)} (doc) VALUES (jsonb(?))`).run(text);
      addEntries(db, target, Number(lastInsertRowid), document);
    },
    undefined,
    text,
  );
}

export function replaceRow(db: DatabaseState, target: CollectionState, key: number, document: StoredDocument, previous: StoredDocument): void {
  noteKinds(db, target, document);
  noteOrder(db, target, document, previous);
  const text = JSON.stringify(document);
  writeRow(
    db,
    target,
    () => {
      statement(db, `UPDATE ${quote(target.tables.docs)} SET doc = jsonb(?) WHERE k = ?`).run(text, key);
      replaceEntries(db, target, key, document, previous);
    },
    previous,
    text,
  );
}

export function removeRow(db: DatabaseState, target: CollectionState, key: number): void {
  // a delete reads keys only: the document is read here, for the totals
  const previous = stored(db, target, key);
  writeRow(
    db,
    target,
    () => {
      statement(db, `DELETE FROM ${quote(target.tables.docs)} WHERE k = ?`).run(key);
      if (previous) removeEntries(db, target, key, previous);
    },
    previous,
    undefined,
  );
}
