import type { StoredDocument, StoredValue } from '../types';

/**
 * Index entries of the fields that hold arrays: one per element (MongoDB matches an array field by any of its
 * elements), one per scalar value in documents where the field is not an array. Values keep SQLite's type
 * order (numbers < text < blobs), booleans and markers are blobs, so a range over one type never meets another.
 */
export type EntryValue = string | number | null | Buffer;

export const MARKER = {
  false: Buffer.from([0x00]),
  true: Buffer.from([0x01]),
  object: Buffer.from([0xf0]),
  nestedArray: Buffer.from([0xf1]),
  emptyArray: Buffer.from([0xfe]),
} as const;

export function encodeElement(value: StoredValue): EntryValue {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? MARKER.true : MARKER.false;
  return Array.isArray(value) ? MARKER.nestedArray : MARKER.object;
}

export function entriesOf(document: StoredDocument, field: string): EntryValue[] {
  if (!Object.hasOwn(document, field)) return [];
  const value = document[field];
  if (!Array.isArray(value)) return [encodeElement(value)];
  if (value.length === 0) return [MARKER.emptyArray];
  return value.map(encodeElement);
}
