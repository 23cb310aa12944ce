import { getOperationAST, parse } from 'graphql';
import { filterCost, LIST_VALUE_COST, TERM_COST } from '../../src/graphql/filter-cost';
import { operationCost } from '../../src/graphql/operation-cost';
import { restFixture } from '../rest/rest-schema';

const { schema } = restFixture();
const cost = (query: string, variables: Record<string, unknown> = {}) => {
  const document = parse(query);
  return operationCost(schema, document, getOperationAST(document)!, variables, { defaultLimit: 10, maxLimit: 100 });
};

test('every key and every branch is a term; list values cost little', () => {
  expect(filterCost({ title: { eq: 'a' } })).toBe(2 * TERM_COST);
  expect(filterCost({ or: [{ title: { eq: 'a' } }, { views: { gt: 1 } }] })).toBe((1 + 2 * 3) * TERM_COST);
  expect(filterCost({ documentId: { in: ['a', 'b', 'c'] } })).toBe(2 * TERM_COST + 3 * LIST_VALUE_COST);
  expect(filterCost({ category: { name: { eq: 'x' } } })).toBe(3 * TERM_COST);
  // an empty branch is still a branch
  expect(filterCost({ or: Array.from({ length: 10 }, () => ({})) })).toBe(11 * TERM_COST);
});

test('grows linearly: 5,000 branches cost 5,000 times one', () => {
  const branches = (count: number) => ({ or: Array.from({ length: count }, (_, index) => ({ title: { eq: `t${index}` } })) });
  expect(filterCost(branches(5000)) - TERM_COST).toBe(5000 * (filterCost(branches(1)) - TERM_COST));
});

test("an operation's cost adds its filters', given literally or in variables; a relation's filter counts for each item above", () => {
  const filter = { title: { containsi: 'a' } };
  expect(cost('{ articles(filters: { title: { containsi: "a" } }) { title } }')).toBe(1 + filterCost(filter) + 10);
  expect(cost('query($f: ArticleFiltersInput) { articles(filters: $f) { title } }', { f: filter })).toBe(1 + filterCost(filter) + 10);
  expect(cost('{ articles(pagination: { limit: 100 }) { tags(filters: { name: { eq: "x" } }) { name } } }')).toBe(1 + 100 * (1 + filterCost({ name: { eq: 'x' } }) + 10));
});
