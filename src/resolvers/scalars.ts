import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { DateResolver, DateTimeResolver, JSONResolver, LocalTimeResolver } from 'graphql-scalars';
import type { IResolvers } from '@graphql-tools/utils';
import { invalidScalarError } from '../errors/graphql-errors';
import type { Models } from '../models/types';
import { dynamicZoneInputName, typeName } from '../sdl/naming';
import { RELATION_INPUT_DESCRIPTION } from '../sdl/emit-sdl';

/** Scalar implementations; names follow Strapi's schema. Values are checked for shape here, for meaning later. */


const LOCALE_CODE = /^(\*|[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*)$/;

const localeCode = new GraphQLScalarType({
  name: 'I18NLocaleCode',
  description: 'A string used to identify an i18n locale',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== 'string' || !LOCALE_CODE.test(value)) throw invalidScalarError(`Invalid locale code ${JSON.stringify(value)}`);
    return value;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || !LOCALE_CODE.test(ast.value)) throw invalidScalarError('Invalid locale code');
    return ast.value;
  },
});

const INTEGER = /^-?\d+$/;
const longValue = (value: unknown): string => {
  if ((typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && INTEGER.test(value))) return String(value);
  if (typeof value === 'bigint') return value.toString();
  throw invalidScalarError(`Long cannot represent ${JSON.stringify(value)}: expected an integer or a string of digits`);
};

/** 64-bit integers travel as strings (as Strapi stores and returns them): JSON numbers lose precision past 2^53. */
const long = new GraphQLScalarType({
  name: 'Long',
  description: 'A 64-bit integer, as a string of digits (integers are accepted on input)',
  serialize: longValue,
  parseValue: longValue,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.INT && ast.kind !== Kind.STRING) throw invalidScalarError('Long expects an integer or a string of digits');
    return longValue(ast.value);
  },
});

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Stored datetimes are already canonical ISO strings: they are sent as they are. graphql-scalars
 * would parse each into a Date that JSON then prints back (about 4 µs a value, most of a REST
 * list's serialisation time); anything else still goes through it.
 */
const dateTime = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  serialize: (value) => (typeof value === 'string' && ISO_DATETIME.test(value) ? value : DateTimeResolver.serialize(value)),
});

/**
 * graphql-scalars' LocalTime puts the value in its message (`Value is not string: ${value}`), which throws a
 * TypeError for an object whose toString is not a function: masked as an unexpected error. Refused here first.
 */
const time = new GraphQLScalarType({
  ...LocalTimeResolver.toConfig(),
  name: 'Time',
  parseValue: (value) => {
    if (typeof value !== 'string') throw invalidScalarError(`Time cannot represent a ${Array.isArray(value) ? 'list' : typeof value}: expected a string like 14:30:00.000`);
    return LocalTimeResolver.parseValue(value);
  },
});

/** A JSON-valued input scalar under another name: the resolver that receives it validates it. */
const jsonInput = (name: string, description: string): GraphQLScalarType =>
  new GraphQLScalarType({
    name,
    description,
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: (ast: ValueNode, variables) => JSONResolver.parseLiteral(ast, variables),
  });

export const scalarResolvers = (models: Models): IResolvers => {
  const zones: Record<string, GraphQLScalarType> = {};
  for (const contentType of models.contentTypes.values()) {
    for (const [name, attribute] of Object.entries(contentType.attributes)) {
      if (attribute.type !== 'dynamiczone') continue;
      const zone = dynamicZoneInputName(typeName(contentType), name);
      zones[zone] = jsonInput(zone, 'A dynamic-zone entry');
    }
  }
  return {
    JSON: JSONResolver,
    DateTime: dateTime,
    Date: DateResolver,
    Time: time,
    Long: long,
    I18NLocaleCode: localeCode,
    RelationInput: jsonInput('RelationInput', RELATION_INPUT_DESCRIPTION),
    ...zones,
  };
};
