import type { ScalarAttributeType } from '../models/types';

/** The GraphQL scalar each attribute type is exposed as, and the filter input that filters it. */

export type FilterScalar = 'ID' | 'String' | 'Int' | 'Long' | 'Float' | 'Boolean' | 'Date' | 'Time' | 'DateTime' | 'JSON';

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

export type FilterOperator =
  | 'eq'
  | 'eqi'
  | 'ne'
  | 'nei'
  | 'lt'
  | 'lte'
  | 'gt'
  | 'gte'
  | 'in'
  | 'notIn'
  | 'contains'
  | 'notContains'
  | 'containsi'
  | 'notContainsi'
  | 'null'
  | 'notNull'
  | 'between'
  | 'startsWith'
  | 'startsWithi'
  | 'endsWith'
  | 'endsWithi'
  | 'and'
  | 'or'
  | 'not';

const LOGICAL: FilterOperator[] = ['and', 'or', 'not'];
const PRESENCE: FilterOperator[] = ['null', 'notNull'];
const EQUALITY: FilterOperator[] = ['eq', 'ne', 'in', 'notIn'];
const ORDER: FilterOperator[] = ['lt', 'lte', 'gt', 'gte', 'between'];
const TEXT: FilterOperator[] = [
  'eqi',
  'nei',
  'contains',
  'notContains',
  'containsi',
  'notContainsi',
  'startsWith',
  'startsWithi',
  'endsWith',
  'endsWithi',
];

/**
 * Only operators that mean something for the scalar are offered (no `containsi` on booleans);
 * dates and date-times also have the text operators, as Strapi's DateFilterInput and
 * DateTimeFilterInput do (they compare the stored ISO text).
 */
export const OPERATORS_BY_SCALAR: Record<FilterScalar, readonly FilterOperator[]> = {
  ID: [...EQUALITY, ...ORDER, ...TEXT, ...PRESENCE, ...LOGICAL],
  String: [...EQUALITY, ...ORDER, ...TEXT, ...PRESENCE, ...LOGICAL],
  Int: [...EQUALITY, ...ORDER, ...PRESENCE, ...LOGICAL],
  Long: [...EQUALITY, ...ORDER, ...PRESENCE, ...LOGICAL],
  Float: [...EQUALITY, ...ORDER, ...PRESENCE, ...LOGICAL],
  Date: [...EQUALITY, ...ORDER, ...TEXT, ...PRESENCE, ...LOGICAL],
  Time: [...EQUALITY, ...ORDER, ...PRESENCE, ...LOGICAL],
  DateTime: [...EQUALITY, ...ORDER, ...TEXT, ...PRESENCE, ...LOGICAL],
  Boolean: ['eq', 'ne', ...PRESENCE, ...LOGICAL],
  JSON: ['eq', 'ne', ...PRESENCE, ...LOGICAL],
};

const LIST_OPERATORS = new Set<FilterOperator>(['in', 'notIn', 'between']);

/** SDL of one per-scalar filter input. */
export const emitScalarFilterInput = (scalar: FilterScalar): string => {
  const name = filterInputOf(scalar);
  const fields = OPERATORS_BY_SCALAR[scalar].map((operator) => {
    if (operator === 'and' || operator === 'or') return `  ${operator}: [${name}!]`;
    if (operator === 'not') return `  not: ${name}`;
    if (operator === 'null' || operator === 'notNull') return `  ${operator}: Boolean`;
    return LIST_OPERATORS.has(operator) ? `  ${operator}: [${scalar}]` : `  ${operator}: ${scalar}`;
  });
  return `input ${name} {\n${fields.join('\n')}\n}`;
};

export const ALL_FILTER_SCALARS = Object.keys(OPERATORS_BY_SCALAR) as FilterScalar[];
