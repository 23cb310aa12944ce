import type { ScalarAttributeType } from '../models/types';
import type { Filter } from '../storage/types';
import { badUserInput } from '../errors/graphql-errors';
import { coerceScalar } from '../documents/coerce-scalar';
import { bigintRange, type RangeOperator } from './bigint-range';
import type { FilterOperator } from '../sdl/scalar-types';

/**
 * The scalar operators of a filter, one family per case: comparisons, lists (`in`, `notIn`,
 * `between`), presence (`null`, `notNull`), text (`contains`, `startsWith`… and their
 * case-insensitive forms, as anchored, escaped regular expressions) and big-integer ranges.
 * Text operators compare a value's text form (`views: { contains: 5 }` matches 5, 15 and 150, as
 * SQL's LIKE on a cast column does in Strapi): the stored string itself where the type is stored as
 * text, the text of a number, boolean or JSON value (`$asText`) otherwise. Ranges on booleans order
 * false before true.
 */

const NORMALIZED_TYPES = new Set<string>(['date', 'time', 'datetime', 'timestamp', 'biginteger']);
/** Types the store holds as something else than text: their text operators go through `$asText`. */
const NOT_TEXT_TYPES = new Set<string>(['integer', 'float', 'decimal', 'boolean', 'json', 'blocks']);
const BOOLEANS = [false, true];

const escapeRegex = (value: string): string => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A value as the store holds it, so that comparisons are made in stored form; strings no longer than `maxStringLength`. */
const toStored = (type: ScalarAttributeType | 'id', value: unknown, path: string, maxStringLength: number): unknown => {
  if (typeof value === 'string' && value.length > maxStringLength) {
    throw badUserInput(`Filter value at ${path} is longer than ${maxStringLength} characters`, { key: path });
  }
  if (value === null || !NORMALIZED_TYPES.has(type)) return value;
  // compare in stored form: dates, times and big integers are normalised strings in the store
  const coerced = coerceScalar({ type: type as ScalarAttributeType, localized: false }, value);
  if (!coerced.ok) throw badUserInput(`Filter value at ${path} ${coerced.message}`, { key: path });
  return coerced.value;
};

/**
 * The text a text operator looks for: a string as written (a part of a date is no date); a Date (what the Date
 * and DateTime scalars parse to) in stored form.
 */
const textOf = (type: ScalarAttributeType | 'id', value: unknown, path: string, maxStringLength: number): string => {
  const text = value instanceof Date ? toStored(type, value, path, maxStringLength) : value;
  if (typeof text !== 'string' && typeof text !== 'number' && typeof text !== 'boolean') {
    throw badUserInput(`Filter value at ${path} must be a string, a number or a boolean`, { key: path });
  }
  return String(toStored('string', text, path, maxStringLength));
};

const textCondition = (
  type: ScalarAttributeType | 'id',
  value: unknown,
  pattern: (escaped: string) => string,
  caseInsensitive: boolean,
  path: string,
  maxStringLength: number,
): Filter => {
  const regex: Filter = { $regex: pattern(escapeRegex(textOf(type, value, path, maxStringLength))), ...(caseInsensitive ? { $options: 'i' } : {}) };
  return NOT_TEXT_TYPES.has(type) ? { $asText: regex } : regex;
};

/**
 * A range with a boolean bound, as the booleans in it: MongoDB compares a boolean only with booleans,
 * so on JSON too a boolean bound selects booleans alone.
 */
const booleanRange = (test: (candidate: boolean) => boolean): Filter => ({ $in: BOOLEANS.filter(test) });

const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

const BOOLEAN_ORDER: Record<RangeOperator, (candidate: boolean, bound: boolean) => boolean> = {
  lt: (candidate, bound) => candidate < bound,
  lte: (candidate, bound) => candidate <= bound,
  gt: (candidate, bound) => candidate > bound,
  gte: (candidate, bound) => candidate >= bound,
};

const TEXT_OPERATORS = new Set<FilterOperator>(['eqi', 'nei', 'contains', 'notContains', 'containsi', 'notContainsi', 'startsWith', 'startsWithi', 'endsWith', 'endsWithi']);

/** Ranges on JSON compare strings, numbers and booleans; an object or list has no order both stores agree on. */
const assertOrderable = (type: ScalarAttributeType | 'id', value: unknown, path: string): void => {
  if ((type === 'json' || type === 'blocks') && typeof value === 'object' && value !== null) {
    throw badUserInput(`Filter value at ${path} must be a string, a number or a boolean`, { key: path });
  }
};

/** One operator of a scalar filter (`containsi: "x"`) → the store condition on the field. */
export const operatorCondition = (operator: FilterOperator, raw: unknown, type: ScalarAttributeType | 'id', path: string, maxStringLength: number): Filter => {
  const text = (pattern: (escaped: string) => string, caseInsensitive: boolean) => textCondition(type, raw, pattern, caseInsensitive, path, maxStringLength);
  // `null` and `notNull` take a boolean, not a value of the field's type; text operators the text as written
  const asGiven = operator === 'null' || operator === 'notNull' || TEXT_OPERATORS.has(operator);
  const value = asGiven ? raw : Array.isArray(raw) ? raw.map((item) => toStored(type, item, path, maxStringLength)) : toStored(type, raw, path, maxStringLength);
  const list = (): unknown[] => {
    if (!Array.isArray(value)) throw badUserInput(`Filter operator ${operator} at ${path} needs an array`, { key: path });
    return value;
  };
  const ordered = (mongoOperator: string, bound: unknown): Filter => {
    assertOrderable(type, bound, path);
    return { [mongoOperator]: bound };
  };
  switch (operator) {
    case 'eq':
      return { $eq: value };
    case 'ne':
      return { $ne: value };
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return isBoolean(value) ? booleanRange((candidate) => BOOLEAN_ORDER[operator](candidate, value)) : ordered(`$${operator}`, value);
    case 'in':
      return { $in: list() };
    case 'notIn':
      return { $nin: list() };
    case 'between': {
      const [low, high] = list();
      if (list().length !== 2) throw badUserInput(`Filter operator between at ${path} needs exactly two values`, { key: path });
      if (isBoolean(low) && isBoolean(high)) return booleanRange((candidate) => candidate >= low && candidate <= high);
      return { ...ordered('$gte', low), ...ordered('$lte', high) };
    }
    case 'null':
      return value ? { $eq: null } : { $ne: null };
    case 'notNull':
      return value ? { $ne: null } : { $eq: null };
    case 'eqi':
      return text((escaped) => `^${escaped}$`, true);
    case 'nei':
      return { $not: text((escaped) => `^${escaped}$`, true) };
    case 'contains':
    case 'containsi':
      return text((escaped) => escaped, operator === 'containsi');
    case 'notContains':
    case 'notContainsi':
      return { $not: text((escaped) => escaped, operator === 'notContainsi') };
    case 'startsWith':
    case 'startsWithi':
      return text((escaped) => `^${escaped}`, operator === 'startsWithi');
    case 'endsWith':
    case 'endsWithi':
      return text((escaped) => `${escaped}$`, operator === 'endsWithi');
    default:
      throw badUserInput(`Invalid operator ${operator} at ${path}`, { key: operator, path });
  }
};

/** Ranges on big integers compare numbers, not the text they are stored as (see bigint-range). */
export const bigintCondition = (field: string, operator: RangeOperator | 'between', raw: unknown, path: string, maxStringLength: number): Filter => {
  if (operator !== 'between') {
    const bound = toStored('biginteger', raw, path, maxStringLength);
    return typeof bound === 'string' ? bigintRange(field, operator, bound) : { [field]: operatorCondition(operator, raw, 'biginteger', path, maxStringLength) };
  }
  if (!Array.isArray(raw) || raw.length !== 2) throw badUserInput(`Filter operator between at ${path} needs exactly two values`, { key: path });
  return { $and: [bigintCondition(field, 'gte', raw[0], path, maxStringLength), bigintCondition(field, 'lte', raw[1], path, maxStringLength)] };
};
