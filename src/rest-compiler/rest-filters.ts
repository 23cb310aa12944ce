import {
  getNullableType,
  isInputObjectType,
  isListType,
  isScalarType,
  isEnumType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { badUserInput } from '../errors/graphql-errors';
import { ALL_FILTER_SCALARS, filterInputOf } from '../sdl/scalar-types';
import { isRecord } from '../common/is-record';

/**
 * REST filters (`filters[title][$containsi]=x`) → the value of a `<Type>FiltersInput` variable:
 * `$` prefixes dropped and strings turned into the scalar each operator expects, so that every
 * operator, `$and/$or/$not` and deep filtering go through the one filter translator. Walking the
 * input types (not the models) keeps REST to exactly what GraphQL accepts, Shadow CRUD included.
 */

const SCALAR_FILTER_INPUTS = new Set(ALL_FILTER_SCALARS.map(filterInputOf));
/** The keys of a document's FiltersInput that carry `$`: logical ones, and a relation's own null/notNull. */
const OPERATOR_KEYS = new Set(['and', 'or', 'not', 'null', 'notNull']);

type Input = Record<string, unknown>;

interface Where {
  param: string;
  /** dotted path of the object holding the key, null at the top */
  path: string | null;
}


const invalidKey = (key: string, where: Where) =>
  badUserInput(where.path ? `Invalid key ${key} at ${where.path}` : `Invalid key ${key}`, { key, path: where.path, source: 'query', param: where.param });

const invalidValue = (key: string, where: Where, expected: string) =>
  badUserInput(`Invalid value for ${where.path ? `${where.path}.` : ''}${key}: expected ${expected}`, {
    key,
    path: where.path,
    source: 'query',
    param: where.param,
  });

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** qs turns a list past `arrayLimit` into an object keyed by index: take it back as a list. */
const asList = (value: unknown): unknown[] => {
  if (Array.isArray(value)) return value;
  if (isRecord(value) && Object.keys(value).every((key) => INTEGER.test(key))) {
    return Object.entries(value).sort(([a], [b]) => Number(a) - Number(b)).map(([, item]) => item);
  }
  return [value];
};

/** Whether a field's `$and`/`$or` lists (or its `$not` holds) operator objects rather than bare values. */
const holdsOperatorObjects = (key: string, value: unknown): boolean => {
  if (key === '$not') return isRecord(value) && Object.entries(value).some(([inner, item]) => holdsOperatorObjects(inner, item));
  return (key === '$and' || key === '$or') && asList(value).some(isRecord);
};

const coerceLeaf = (typeName: string, value: unknown, key: string, where: Where): unknown => {
  if (value === null) return null;
  if (typeof value !== 'string') {
    if (typeof value === 'number' || typeof value === 'boolean') return value;
    throw invalidValue(key, where, `a ${typeName} value`);
  }
  switch (typeName) {
    case 'Int': {
      const number = Number(value);
      if (!INTEGER.test(value.trim()) || !Number.isSafeInteger(number) || Math.abs(number) > 2 ** 31 - 1) throw invalidValue(key, where, 'an integer');
      return number;
    }
    case 'Float':
      if (!NUMBER.test(value.trim())) throw invalidValue(key, where, 'a number');
      return Number(value);
    case 'Boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      throw invalidValue(key, where, 'true or false');
    case 'Long':
      if (!INTEGER.test(value.trim())) throw invalidValue(key, where, 'an integer');
      return value.trim();
    default:
      return value;
  }
};

export const createRestFilterConverter = (schema: GraphQLSchema) => {
  const convertValue = (type: GraphQLInputType, value: unknown, key: string, where: Where): unknown => {
    const nullable = getNullableType(type);
    if (isListType(nullable)) return asList(value).map((item) => convertValue(nullable.ofType, item, key, where));
    if (isInputObjectType(nullable)) {
      return convertObject(nullable, value, { param: where.param, path: where.path ? `${where.path}.${key}` : key });
    }
    if (isScalarType(nullable) || isEnumType(nullable)) return coerceLeaf(nullable.name, value, key, where);
    throw invalidKey(key, where);
  };

  const convertObject = (type: GraphQLInputObjectType, input: unknown, where: Where): Input => {
    const fields = type.getFields();
    const operators = SCALAR_FILTER_INPUTS.has(type.name);
    if (!isRecord(input)) {
      // `filters[title]=x` and `filters[kind][0]=a` are Strapi's shorthands for `$eq` and `$in`.
      const shorthand = Array.isArray(input) ? 'in' : 'eq';
      if (operators && input !== undefined && shorthand in fields) return { [shorthand]: convertValue(fields[shorthand].type, input, `$${shorthand}`, where) };
      throw badUserInput(`Invalid filters${where.path ? ` at ${where.path}` : ''}: expected an object`, { key: where.path ?? 'filters', path: where.path, source: 'query', param: where.param });
    }
    const output: Input = {};
    const lifted: Input[] = [];
    for (const [key, value] of Object.entries(input)) {
      const dollar = key.startsWith('$');
      const name = dollar ? key.slice(1) : key;
      // Operators and logical keys carry `$`, attribute names do not.
      const wellFormed = operators ? dollar : dollar === OPERATOR_KEYS.has(name);
      const field = wellFormed && Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
      if (!field) throw invalidKey(key, where);
      const fieldType = getNullableType(field.type);
      if (!operators && isInputObjectType(fieldType) && SCALAR_FILTER_INPUTS.has(fieldType.name)) {
        const own = convertField(name, fieldType, value, { param: where.param, path: where.path ? `${where.path}.${key}` : key });
        if (own.lifted) lifted.push(own.filter);
        else Object.assign(output, own.filter);
      } else output[name] = convertValue(field.type, value, key, where);
    }
    if (lifted.length === 0) return output;
    const parts = Object.keys(output).length > 0 ? [output, ...lifted] : lifted;
    return parts.length === 1 ? parts[0] : { and: parts };
  };

  /**
   * One field's operators. REST lets a field's `$and`/`$or`/`$not` hold operator objects
   * (`filters[title][$or][0][$contains]=x`), which Strapi's GraphQL types do not (`or: [String]`, bare values):
   * such a field's condition is lifted to the enclosing filters (`or: [{ title: { contains: "x" } }, …]`),
   * the same condition in the form the types take. Bare values in the list stay implicit `eq`s.
   */
  const convertField = (name: string, type: GraphQLInputObjectType, input: unknown, where: Where): { filter: Input; lifted: boolean } => {
    if (!isRecord(input) || !Object.entries(input).some(([key, value]) => holdsOperatorObjects(key, value))) {
      return { filter: { [name]: convertObject(type, input, where) }, lifted: false };
    }
    const own: Record<string, unknown> = {};
    const conditions: Input[] = [];
    for (const [key, value] of Object.entries(input)) {
      if (!holdsOperatorObjects(key, value)) {
        own[key] = value;
        continue;
      }
      const inner: Where = { param: where.param, path: `${where.path}.${key}` };
      if (key === '$not') conditions.push({ not: convertField(name, type, value, inner).filter });
      else conditions.push({ [key.slice(1)]: asList(value).map((item) => convertField(name, type, isRecord(item) ? item : { $eq: item }, inner).filter) });
    }
    if (Object.keys(own).length > 0) conditions.unshift({ [name]: convertObject(type, own, where) });
    return { filter: conditions.length === 1 ? conditions[0] : { and: conditions }, lifted: true };
  };

  return {
    /** `filters` of the query string → the value of the FiltersInput named (none: the type cannot be filtered). */
    convert(filtersInput: string | undefined, input: unknown, param = 'filters', path: string | null = null): Input {
      const type = filtersInput === undefined ? undefined : schema.getType(filtersInput);
      if (!isInputObjectType(type)) throw badUserInput(`Invalid key ${param}: this type cannot be filtered`, { key: param, path, source: 'query', param });
      return convertObject(type, input, { param, path });
    },
  };
};

export type RestFilterConverter = ReturnType<typeof createRestFilterConverter>;
