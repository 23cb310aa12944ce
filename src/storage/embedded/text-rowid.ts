/**
 * The rowid of a trigram index entry: from the high bits down, the partition's number (0 for an index not
 * split, and for values past MAX_PARTITIONS), the row's key, the text path's slot. A partition's entries are
 * one rowid range, which FTS5 seeks to: a search reads its own part of the index. Every part stays below 2^52,
 * so the rowid is exact as a JavaScript number.
 */

const SLOT_BITS = 6;
const KEY_BITS = 34;
const PARTITION_BITS = 12;
const KEY_SHIFT = 2 ** SLOT_BITS;
const PARTITION_SHIFT = 2 ** (SLOT_BITS + KEY_BITS);

export const MAX_TEXT_PATHS = 2 ** SLOT_BITS;
/** partitions numbered per slot; values past them share partition 0 */
export const MAX_PARTITIONS = 2 ** PARTITION_BITS - 1;
const MAX_KEY = 2 ** KEY_BITS - 1;

export function textRowid(key: number, slot: number, partition: number): number {
  if (key > MAX_KEY) throw new Error(`row key ${key} past the trigram index's ${MAX_KEY}`);
  return partition * PARTITION_SHIFT + key * KEY_SHIFT + slot;
}

/** SQL: the row key of an entry's `rowid` */
export const KEY_OF_ROWID = `((rowid >> ${SLOT_BITS}) & ${MAX_KEY})`;
/** SQL: the condition that an entry's `rowid` is of `slot` */
export const slotCondition = (slot: number): string => `(rowid & ${MAX_TEXT_PATHS - 1}) = ${slot}`;

/** The first and last rowid of a partition. */
export const partitionRange = (partition: number): [number, number] => [partition * PARTITION_SHIFT, (partition + 1) * PARTITION_SHIFT - 1];

/** What names a document's partition: the JSON array of its values of the fields (null for a missing one). */
export const partitionValues = (fields: readonly string[], document: Readonly<Record<string, unknown>>): string =>
  JSON.stringify(fields.map((field) => document[field] ?? null));
