import type { StoredDocument, StoredValue } from './types';

type Scalar = string | number | boolean;
export type Predicate = (value: StoredValue | undefined) => boolean;

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

// MongoDB: a field equals x when it is x or is an array holding x; null also matches a missing field
function equals(operand: Scalar | null): Predicate {
  if (operand === null) return (value) => value === undefined || value === null || (Array.isArray(value) && value.includes(null));
  return (value) => value === operand || (Array.isArray(value) && value.includes(operand));
}

function isIn(operands: Array<Scalar | null>): Predicate {
  const wanted = new Set<StoredValue>(operands);
  const wantsNull = wanted.has(null);
  return (value) => {
    if (value === undefined) return wantsNull;
    if (Array.isArray(value)) return value.some((item) => wanted.has(item));
    return wanted.has(value);
  };
}

// range operators compare within one type only (MongoDB's type bracketing); an array matches by any element
function compares(operator: string, operand: string | number): Predicate {
  const test =
    operator === '$gt'
      ? (item: StoredValue) => typeof item === typeof operand && (item as typeof operand) > operand
      : operator === '$gte'
        ? (item: StoredValue) => typeof item === typeof operand && (item as typeof operand) >= operand
        : operator === '$lt'
          ? (item: StoredValue) => typeof item === typeof operand && (item as typeof operand) < operand
          : (item: StoredValue) => typeof item === typeof operand && (item as typeof operand) <= operand;
  return (value) => value !== undefined && (Array.isArray(value) ? value.some(test) : test(value));
}

// strings compare by code point in MongoDB, by UTF-16 unit with `<`: they differ from U+D800 up
const ABOVE_SURROGATE_START = /[\ud800-\uffff]/;

function compileOperator(operator: string, operand: unknown): Predicate | undefined {
  switch (operator) {
    case '$eq':
      return isScalar(operand) || operand === null ? equals(operand) : undefined;
    case '$ne': {
      if (!(isScalar(operand) || operand === null)) return undefined;
      const matches = equals(operand);
      return (value) => !matches(value);
    }
    case '$in':
    case '$nin': {
      if (!Array.isArray(operand) || !operand.every((item) => isScalar(item) || item === null)) return undefined;
      const matches = isIn(operand as Array<Scalar | null>);
      return operator === '$in' ? matches : (value) => !matches(value);
    }
    case '$exists':
      return typeof operand === 'boolean' ? (value) => (value !== undefined) === operand : undefined;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      if (typeof operand === 'number' || (typeof operand === 'string' && !ABOVE_SURROGATE_START.test(operand))) {
        return compares(operator, operand);
      }
      return undefined;
    default:
      return undefined;
  }
}

function isOperatorObject(condition: unknown): condition is Record<string, unknown> {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return false;
  const keys = Object.keys(condition);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

/**
 * A native predicate on a field's value for `condition` when every operator has a plain operand; undefined
 * when the condition needs mingo ($regex, $elemMatch, $not, $size, object or array operands, strings compared
 * beyond U+D7FF).
 */
export function compileValuePredicate(condition: unknown): Predicate | undefined {
  if (isScalar(condition) || condition === null) return equals(condition);
  if (!isOperatorObject(condition)) return undefined;
  const predicates = Object.entries(condition).map(([operator, operand]) => compileOperator(operator, operand));
  if (predicates.some((predicate) => predicate === undefined)) return undefined;
  if (predicates.length === 1) return predicates[0];
  return (value) => predicates.every((predicate) => predicate!(value));
}

/** Marks a dotted path that crosses an array: MongoDB then matches per element, which mingo handles. */
export const THROUGH_ARRAY = Symbol('path crosses an array');

/** The value at a dotted path when no array lies on the way (missing under null or scalars). */
export function readPlainPath(document: StoredDocument, path: string[]): StoredValue | undefined | typeof THROUGH_ARRAY {
  let current: StoredValue | undefined = document;
  for (let i = 0; i < path.length; i++) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (Array.isArray(current)) return THROUGH_ARRAY;
    current = Object.hasOwn(current, path[i]) ? current[path[i]] : undefined;
  }
  return current;
}
