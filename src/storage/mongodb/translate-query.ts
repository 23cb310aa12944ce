import type { Document, IndexDirection } from 'mongodb';
import { cloneDocument } from '../clone-document';
import { assertSafeFilter } from '../filter-guard';
import { normalizeIndexSpec, type NormalizedIndexSpec } from '../index-spec';
import type { Filter, IndexSpec, SortSpec, StoredValue, UpdateSpec } from '../types';
import { assertSafeUpdate } from '../update-spec';

/**
 * Pure translations of Folio's storage requests into what the MongoDB driver takes. Folio filters are already
 * MongoDB query documents: after the guard they pass through as a copy, so what reaches the server is exactly
 * what was checked.
 */

function copyFilterValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyFilterValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyFilterValue(item)]));
  }
  return value;
}

export function toMongoFilter(filter: Filter): Document {
  assertSafeFilter(filter);
  return copyFilterValue(filter) as Document;
}

/** Pairs keep their order (a plain object would move integer-like field names first). */
export function toMongoSort(sort: SortSpec): Array<[string, 1 | -1]> {
  return sort.map(([field, direction]) => [field, direction]);
}

/** Folio documents have no `_id`: it is always projected away. */
export function toMongoProjection(projection: string[] | undefined): Document {
  const fields: Document = { _id: 0 };
  for (const field of projection ?? []) fields[field] = 1;
  return fields;
}

/** The update document, or null when the spec changes nothing (MongoDB refuses an empty update). */
export function toMongoUpdate(update: UpdateSpec): Document | null {
  assertSafeUpdate(update);
  const translated: Document = {};
  if (update.$set && Object.keys(update.$set).length > 0) translated.$set = cloneDocument(update.$set);
  if (update.$unset && update.$unset.length > 0) translated.$unset = Object.fromEntries(update.$unset.map((path) => [path, '']));
  return Object.keys(translated).length > 0 ? translated : null;
}

// every BSON type but null and undefined; Folio documents only use JSON's
const NON_NULL_TYPES = ['number', 'string', 'bool', 'object', 'array', 'date', 'objectId', 'binData', 'timestamp', 'regex'];

export interface MongoIndex {
  key: Array<[string, IndexDirection]>;
  options: { name: string; unique?: true; partialFilterExpression?: Document };
}

/**
 * A unique index leaves out documents whose leading key is null or missing (see IndexSpec.unique): a partial
 * index on the leading field having a non-null type, which MongoDB supports from 3.6 on.
 */
export function toMongoIndex(index: IndexSpec): MongoIndex {
  const spec = normalizeIndexSpec(index);
  const options: MongoIndex['options'] = { name: spec.name };
  if (spec.unique) {
    options.unique = true;
    options.partialFilterExpression = { [spec.keys[0][0]]: { $type: NON_NULL_TYPES } };
  }
  return { key: toMongoSort(spec.keys), options };
}

/** A listIndexes entry back as an IndexSpec; null for MongoDB's own `_id` index. */
export function fromMongoIndex(index: Document): NormalizedIndexSpec | null {
  if (index.name === '_id_') return null;
  const keys: SortSpec = Object.entries(index.key as Record<string, StoredValue>).map(([field, direction]) => [field, direction === -1 ? -1 : 1]);
  return { keys, unique: index.unique === true, name: String(index.name) };
}
