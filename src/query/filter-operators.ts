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
 */

const NORMALIZED_TYPES = new Set<string>(['date', 'time', 'datetime', 'timestamp', 'biginteger']);

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

const textCondition = (value: unknown, pattern: (escaped: string) => string, caseInsensitive: boolean, path: string): Filter => {
  if (typeof value !== 'string') throw badUserInput(`Filter value at ${path} must be a string`, { key: path });
  return caseInsensitive ? { $regex: pattern(escapeRegex(value)), $options: 'i' } : { $regex: pattern(escapeRegex(value)) };
};

/** One operator of a scalar filter (`containsi: "x"`) → the store condition on the field. */
export const operatorCondition = (operator: FilterOperator, raw: unknown, type: ScalarAttributeType | 'id', path: string, maxStringLength: number): Filter => {
  // `null` and `notNull` take a boolean, not a value of the field's type
  const presence = operator === 'null' || operator === 'notNull';
  const value = presence ? raw : Array.isArray(raw) ? raw.map((item) => toStored(type, item, path, maxStringLength)) : toStored(type, raw, path, maxStringLength);
  const list = (): unknown[] => {
    if (!Array.isArray(value)) throw badUserInput(`Filter operator ${operator} at ${path} needs an array`, { key: path });
    return value;
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
      return { [`$${operator}`]: value };
    case 'in':
      return { $in: list() };
    case 'notIn':
      return { $nin: list() };
    case 'between': {
      const [low, high] = list();
      if (list().length !== 2) throw badUserInput(`Filter operator between at ${path} needs exactly two values`, { key: path });
      return { $gte: low, $lte: high };
    }
    case 'null':
      return value ? { $eq: null } : { $ne: null };
    case 'notNull':
      return value ? { $ne: null } : { $eq: null };
    case 'eqi':
      return textCondition(value, (text) => `^${text}$`, true, path);
    case 'nei':
      return { $not: textCondition(value, (text) => `^${text}$`, true, path) };
    case 'contains':
    case 'containsi':
      return textCondition(value, (text) => text, operator === 'containsi', path);
    case 'notContains':
    case 'notContainsi':
      return { $not: textCondition(value, (text) => text, operator === 'notContainsi', path) };
    case 'startsWith':
    case 'startsWithi':
      return textCondition(value, (text) => `^${text}`, operator === 'startsWithi', path);
    case 'endsWith':
    case 'endsWithi':
      return textCondition(value, (text) => `${text}$`, operator === 'endsWithi', path);
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
