import { UniqueConstraintError, type IndexSpec, type StoredDocument } from '../types';
import { getPath } from './document-path';

export interface UniqueIndex {
  readonly spec: IndexSpec;
  /** the index entry of a document, or null when the document is left out (leading field null or missing) */
  entryOf(document: StoredDocument): string | null;
  /** throws UniqueConstraintError when another document than `key` holds `entry` */
  assertFree(entry: string, key: number): void;
  add(entry: string, key: number): void;
  remove(entry: string, key: number): void;
}

/**
 * Enforces `spec` over one collection's documents: an entry is the JSON of the key fields' values (missing
 * read as null); documents whose leading key field is null or missing are not indexed, so they never collide.
 */
export function createUniqueIndex(collection: string, spec: IndexSpec): UniqueIndex {
  const fields = spec.keys.map(([field]) => field);
  const holders = new Map<string, number>();
  return {
    spec,
    entryOf(document) {
      const values = fields.map((field) => getPath(document, field) ?? null);
      return values[0] === null ? null : JSON.stringify(values);
    },
    assertFree(entry, key) {
      const holder = holders.get(entry);
      if (holder !== undefined && holder !== key) throw new UniqueConstraintError(collection, fields);
    },
    add(entry, key) {
      holders.set(entry, key);
    },
    remove(entry, key) {
      if (holders.get(entry) === key) holders.delete(entry);
    },
  };
}
