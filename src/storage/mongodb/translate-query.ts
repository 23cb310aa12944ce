import type { Document, IndexDirection } from 'mongodb';
import { cloneDocument } from '../clone-document';
import { assertSafeFilter } from '../filter-guard';
import { normalizeIndexSpec, type NormalizedIndexSpec } from '../index-spec';
import type { Filter, IndexSpec, SortSpec, StoredValue, UpdateSpec } from '../types';
import { assertSafeUpdate } from '../update-spec';
import { elemMatchExpression, isOperatorObject, textMatches } from './filter-expression';

/**
 * Pure translations of Folio's storage requests into what the MongoDB driver takes. Folio filters are already
 * MongoDB query documents: after the guard they pass through as a copy, so what reaches the server is exactly
 * what was checked; only Folio's own `$asText` becomes an `$expr`, and so does an `$elemMatch` holding one
 * (MongoDB allows no `$expr` inside `$elemMatch`: see filter-expression.ts).
 */

function copyFilterValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyFilterValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyFilterValue(item)]));
  }
  return value;
}

const holdsAsText = (value: unknown): boolean =>
  Array.isArray(value) ? value.some(holdsAsText) : typeof value === 'object' && value !== null && Object.entries(value).some(([key, item]) => key === '$asText' || holdsAsText(item));

/**
 * A field's operators, those holding `$asText` taken out into expressions beside the rest:
 * `{ p: { $not: C } }` is `$nor: [{ p: C }]`.
 */
function fieldFilter(path: string, condition: Record<string, unknown>): Document {
  const rest: Document = {};
  const parts: Document[] = [];
  for (const [operator, operand] of Object.entries(condition)) {
    if (operator === '$asText') parts.push({ $expr: textMatches(`$${path}`, operand, path) });
    else if (operator === '$elemMatch' && holdsAsText(operand)) parts.push(elemMatchExpression(path, operand));
    else if (operator === '$not' && isOperatorObject(operand) && holdsAsText(operand)) parts.push({ $nor: [fieldFilter(path, operand)] });
    else rest[operator] = copyFilterValue(operand);
  }
  if (Object.keys(rest).length > 0) parts.unshift({ [path]: rest });
  return parts.length === 1 ? parts[0] : { $and: parts };
}

function mongoFilter(filter: Filter): Document {
  const translated: Document = {};
  const expressions: Document[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) translated[key] = value.map((branch) => mongoFilter(branch as Filter));
    else if (isOperatorObject(value) && holdsAsText(value)) expressions.push(fieldFilter(key, value));
    else translated[key] = copyFilterValue(value);
  }
  if (expressions.length === 0) return translated;
  const parts = [...(Object.keys(translated).length > 0 ? [translated] : []), ...expressions];
  return parts.length === 1 ? parts[0] : { $and: parts };
}

/** A guarded Folio filter as the MongoDB query selecting exactly its documents. */
export function toMongoQuery(filter: Filter): Document {
  assertSafeFilter(filter);
  return holdsAsText(filter) ? mongoFilter(filter) : (copyFilterValue(filter) as Document);
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
