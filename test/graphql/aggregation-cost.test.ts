import { getOperationAST, parse } from 'graphql';
import { operationCost } from '../../src/graphql/operation-cost';
import { restFixture } from '../rest/rest-schema';

/** Aggregation is costed like lists (issue 36): a group field multiplies by its groups, a group's connection pages its nodes. */

const { schema } = restFixture();
const limits = { defaultLimit: 10, maxLimit: 100 };
const cost = (query: string) => {
  const document = parse(query);
  return operationCost(schema, document, getOperationAST(document)!, {}, limits);
};

test('aggregate costs its fields', () => {
  expect(cost('{ articles_connection { aggregate { count sum { views } } } }')).toBe(1 + (1 + (1 + (1 + 1))));
});

test('a groupBy multiplies by its groups, bounded by maxLimit, and a nested connection counts as a list', () => {
  const entry = (nodes: number) => 1 + (1 + (1 + nodes) + (1 + 1));
  const grouped = (groups: string) => `{ articles_connection { groupBy { category${groups} { key connection(pagination: { limit: 20 }) { nodes { title } aggregate { count } } } } } }`;
  expect(cost(grouped('(pagination: { limit: 50 })'))).toBe(1 + (1 + (1 + 50 * entry(20))));
  expect(cost(grouped('(pagination: { limit: 100000 })'))).toBe(1 + (1 + (1 + 100 * entry(20))));
  // no pagination: defaultLimit groups
  expect(cost(grouped(''))).toBe(1 + (1 + (1 + 10 * entry(20))));
});

test('groups in groups multiply', () => {
  const inner = '{ key connection { aggregate { count } } }';
  const query = `{ articles_connection { groupBy { category(pagination: { limit: 50 }) { key connection { groupBy { kind(pagination: { limit: 50 }) ${inner} } } } } } }`;
  const innerEntry = 1 + (1 + (1 + 1));
  const outerEntry = 1 + (1 + (1 + (1 + 50 * innerEntry)));
  expect(cost(query)).toBe(1 + (1 + (1 + 50 * outerEntry)));
});

test('groups(by:) of several attributes counts like a groupBy list: its page of combinations, bounded by maxLimit, times each entry', () => {
  const combinations = (page: string) => `{ articles_connection { groups(by: [category, kind]${page}) { key { category kind } connection { aggregate { count } } } } }`;
  const entry = 1 + (1 + 1) + (1 + (1 + 1));
  expect(cost(combinations(', pagination: { limit: 50 }'))).toBe(1 + (1 + 50 * entry));
  expect(cost(combinations(', pagination: { pageSize: 100000 }'))).toBe(1 + (1 + 100 * entry));
  expect(cost(combinations(''))).toBe(1 + (1 + 10 * entry));
});
