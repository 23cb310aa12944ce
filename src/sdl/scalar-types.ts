import type { ScalarAttributeType } from '../models/types';

/** The GraphQL scalar each attribute type is exposed as, and the filter input that filters it. */

export const ALL_FILTER_SCALARS = ['ID', 'String', 'Int', 'Long', 'Float', 'Boolean', 'Date', 'Time', 'DateTime', 'JSON'] as const;
export type FilterScalar = (typeof ALL_FILTER_SCALARS)[number];

const GRAPHQL_SCALAR: Record<Exclude<ScalarAttributeType, 'enumeration'>, FilterScalar> = {
  string: 'String',
  text: 'String',
  richtext: 'String',
  email: 'String',
  password: 'String',
  uid: 'String',
  blocks: 'JSON',
  json: 'JSON',
  integer: 'Int',
  biginteger: 'Long',
  float: 'Float',
  decimal: 'Float',
  boolean: 'Boolean',
  date: 'Date',
  time: 'Time',
  datetime: 'DateTime',
  timestamp: 'DateTime',
};

export const graphqlScalarOf = (type: Exclude<ScalarAttributeType, 'enumeration'>): FilterScalar => GRAPHQL_SCALAR[type];

/** Enumerations filter as strings, as in Strapi. */
export const filterScalarOf = (type: ScalarAttributeType): FilterScalar =>
  type === 'enumeration' ? 'String' : GRAPHQL_SCALAR[type];

export const filterInputOf = (scalar: FilterScalar): string => `${scalar}FilterInput`;

/**
 * Every scalar's filter input has the same operators, as Strapi's have: text operators on numbers, booleans and
 * JSON compare the value's text form, ranges on booleans order false before true (src/query/filter-operators.ts).
 * `startsWithi` and `endsWithi` are Folio's additions, the case-insensitive forms REST already has.
 */
export const SCALAR_FILTER_OPERATORS = [
  'and',
  'or',
  'not',
  'eq',
  'eqi',
  'ne',
  'nei',
  'startsWith',
  'startsWithi',
  'endsWith',
  'endsWithi',
  'contains',
  'notContains',
  'containsi',
  'notContainsi',
  'gt',
  'gte',
  'lt',
  'lte',
  'null',
  'notNull',
  'in',
  'notIn',
  'between',
] as const;
export type FilterOperator = (typeof SCALAR_FILTER_OPERATORS)[number];

// `and` and `or` list bare values, as Strapi types them: each item is an implicit `eq` (translate-filters.ts)
const LIST_OPERATORS = new Set<FilterOperator>(['and', 'or', 'in', 'notIn', 'between']);

/** SDL of one per-scalar filter input. */
export const emitScalarFilterInput = (scalar: FilterScalar): string => {
  const name = filterInputOf(scalar);
  const fields = SCALAR_FILTER_OPERATORS.map((operator) => {
    if (operator === 'not') return `  not: ${name}`;
    if (operator === 'null' || operator === 'notNull') return `  ${operator}: Boolean`;
    return LIST_OPERATORS.has(operator) ? `  ${operator}: [${scalar}]` : `  ${operator}: ${scalar}`;
  });
  return `input ${name} {\n${fields.join('\n')}\n}`;
};
