import type { StoredDocument } from '../types';
import type { CollectionState } from './collection-state';
import { quote, statement, type DatabaseState } from './database-state';
import { getPath } from './document-path';
import { entriesOf } from './multikey-entries';
import { indexedText } from './text-pattern';
import { MAX_PARTITIONS, partitionValues, textRowid } from './text-rowid';

function addMultikeyEntries(db: DatabaseState, target: CollectionState, key: number, document: StoredDocument): void {
  const insertEntry = statement(db, `INSERT INTO ${quote(target.tables.multikey)} (f, v, k) VALUES (?, ?, ?)`);
  for (const field of target.multikeyFields()) for (const value of entriesOf(document, field)) insertEntry.run(field, value, key);
}

/** An inserted document's multikey and trigram entries. */
export function addEntries(db: DatabaseState, target: CollectionState, key: number, document: StoredDocument): void {
  addMultikeyEntries(db, target, key, document);
  target.textPaths.forEach((_, slot) => addText(db, target, key, slot, document));
}

/**
 * The number of `document`'s partition of the trigram index of `slot` (0 when it is not split). A new one is
 * numbered when `numbering`, while numbers last; past them, values share partition 0.
 */
function partitionNumber(db: DatabaseState, target: CollectionState, slot: number, document: StoredDocument, numbering: boolean): number {
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
  statement(db, 'INSERT INTO folio_text_partitions (collection, slot, value, n) VALUES (?, ?, ?, ?)').run(target.name, slot, value, number);
  // Not a change the reader threads must wait for: no committed entry has the number, so a search of its
  // part finds what the last commit holds, nothing. A read compiled with it and answered after an undo that
  // gives the number to other values is read again (catalogVersion).
  db.catalogVersion++;
  return number;
}

export function addText(db: DatabaseState, target: CollectionState, key: number, slot: number, document: StoredDocument): void {
  const value = getPath(document, target.textPaths[slot]);
  if (typeof value !== 'string') return;
  db.textMerges.written(target);
  const rowid = textRowid(key, slot, partitionNumber(db, target, slot, document, true));
  statement(db, `INSERT INTO ${quote(target.tables.text)} (rowid, u) VALUES (?, ?)`).run(rowid, indexedText(value));
}

// one rowid at a time: a rowid range made FTS5 walk its whole index (an update took 42 ms at 200,000 documents, 1 ms with equalities)
export function removeText(db: DatabaseState, target: CollectionState, key: number, slot: number, document: StoredDocument): void {
  if (typeof getPath(document, target.textPaths[slot]) !== 'string') return;
  const rowid = textRowid(key, slot, partitionNumber(db, target, slot, document, false));
  if (statement(db, `DELETE FROM ${quote(target.tables.text)} WHERE rowid = ?`).run(rowid).changes > 0) db.textMerges.written(target);
}

function removeMultikeyEntries(db: DatabaseState, target: CollectionState, key: number): void {
  statement(db, `DELETE FROM ${quote(target.tables.multikey)} WHERE k = ?`).run(key);
}

/** A removed document's multikey and trigram entries. */
export function removeEntries(db: DatabaseState, target: CollectionState, key: number, document: StoredDocument): void {
  removeMultikeyEntries(db, target, key);
  for (let slot = 0; slot < target.textPaths.length; slot++) removeText(db, target, key, slot, document);
}

/**
 * A replaced document's index entries. Its trigram entries are rewritten only for the texts that changed:
 * FTS5 answers a delete with a tombstone that every later search checks its matches against, and searches
 * at 200,000 articles took up to 3× longer after a few hundred deletes (inserts alone cost nothing). An
 * update of a document's other fields (views, relations, publication) no longer deletes any, unless it moves
 * the document to another partition.
 */
export function replaceEntries(db: DatabaseState, target: CollectionState, key: number, document: StoredDocument, previous: StoredDocument): void {
  removeMultikeyEntries(db, target, key);
  addMultikeyEntries(db, target, key, document);
  target.textPaths.forEach((path, slot) => {
    const value = getPath(document, path);
    const fields = target.partitionOf(slot);
    const samePart = !fields || partitionValues(fields, document) === partitionValues(fields, previous);
    if (typeof value === 'string' && value === getPath(previous, path) && samePart) return;
    removeText(db, target, key, slot, previous);
    addText(db, target, key, slot, document);
  });
}
