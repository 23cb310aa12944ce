import type { IndexSpec, StoredDocument } from '../storage/types';

/**
 * The export format: newline-delimited JSON, one object per line, in this order:
 *
 *   {"format":"folio-export","version":1,"engine":"embedded"}
 *   {"collection":"articles","indexes":[{"keys":[["slug",1]],"unique":true,"name":"slug_1"}]}
 *   {"document":{"documentId":"…","title":"…"}}          (one line per document of the collection above)
 *   {"collection":"folio_sequences","indexes":[…]}        (counters travel as an ordinary collection)
 *   {"document":{"name":"articles","value":12}}
 *   {"end":true,"collections":2,"documents":2}
 *
 * Documents are wrapped so that no field of theirs can be mistaken for a header. The end line lets an import
 * tell a complete file from a truncated one.
 */
export const FORMAT = 'folio-export';
export const VERSION = 1;

export type TransferLine =
  | { format: typeof FORMAT; version: number; engine: string }
  | { collection: string; indexes: IndexSpec[] }
  | { document: StoredDocument }
  | { end: true; collections: number; documents: number };

/** Reports how many documents of `collection` have been written or read so far. */
export type TransferProgress = (collection: string, count: number) => void;

export interface TransferSummary {
  collections: number;
  documents: number;
}
