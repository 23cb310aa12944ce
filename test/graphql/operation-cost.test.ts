import { getOperationAST, parse } from 'graphql';
import { operationCost } from '../../src/graphql/operation-cost';
import { restFixture } from '../rest/rest-schema';
import { fragmentFanOut } from '../support/hostile-documents';

const { schema } = restFixture();
const limits = { defaultLimit: 10, maxLimit: 100 };
const cost = (query: string, variables: Record<string, unknown> = {}) => {
  const document = parse(query);
  return operationCost(schema, document, getOperationAST(document)!, variables, limits);
};

test('each field costs 1; a list multiplies its selection by its page', () => {
  expect(cost('{ articles { title } }')).toBe(1 + 10 * 1);
  expect(cost('{ articles(pagination: { limit: 100 }) { title views } }')).toBe(1 + 100 * 2);
  expect(cost('{ articles(pagination: { pageSize: 5 }) { title } }')).toBe(1 + 5);
  expect(cost('{ articles(pagination: { limit: -1 }) { title } }')).toBe(1 + 100);
  expect(cost('{ articles(pagination: { limit: 1000 }) { title } }')).toBe(1 + 100);
});

test('pages given in variables count', () => {
  expect(cost('query($p: PaginationArg) { articles(pagination: $p) { title } }', { p: { limit: 50 } })).toBe(1 + 50);
});

test('nested lists multiply, to-one relations do not', () => {
  expect(cost('{ articles(pagination: { limit: 100 }) { category { name } tags(pagination: { limit: 20 }) { name } } }')).toBe(1 + 100 * (1 + 1 + 1 + 20));
});

test("a connection's page sizes its nodes", () => {
  expect(cost('{ articles_connection(pagination: { pageSize: 50 }) { nodes { title } pageInfo { total } } }')).toBe(1 + (1 + 50 * 1) + (1 + 1));
});

test('fragments and aliases count where they are used', () => {
  const fragment = 'fragment F on Article { title views }';
  expect(cost(`{ a: articles { ...F } b: articles { ...F } } ${fragment}`)).toBe(2 * (1 + 10 * 2));
});

test('the amplification query of 25 aliases costs what it can return, millions', () => {
  const branch = (index: number) => `a${index}: articles(pagination: { limit: 100 }) { tags { articles(pagination: { limit: 100 }) { category { articles { title } } } } }`;
  const query = `{ ${Array.from({ length: 25 }, (_, index) => branch(index)).join(' ')} }`;
  expect(cost(query)).toBeGreaterThan(10_000_000);
});

test('a dynamic-zone entry costs what the fragments of its own type cost: the dearest type, not all fragments together', () => {
  const zone = (fragments: string) => cost(`{ articles(pagination: { limit: 1 }) { sections { __typename ${fragments} } } }`);
  // 1 (articles) + 1 × (1 (sections) + 10 × (1 (__typename) + 2 (the quote's fields, dearer than the rich text's 1)))
  expect(zone('... on ComponentSharedQuote { text source } ... on ComponentSharedRichText { body }')).toBe(1 + 1 + 10 * (1 + 2));
  // two fragments on one type add up; a fragment on the union applies to every member
  expect(zone('... on ComponentSharedQuote { text } ... on ComponentSharedQuote { source } ... on ArticleSectionsDynamicZone { __typename }')).toBe(1 + 1 + 10 * (1 + 2 + 1));
});

test('a fragment spread many times is costed once per page: 2^60 paths cost 2^60, at once', () => {
  // walked per spread, this did not finish (2^25 paths took 41 s)
  expect(cost(fragmentFanOut(60))).toBe(1 + 2 ** 60);
  expect(cost(fragmentFanOut(3, 'name articles { title }'))).toBe(1 + 8 * (1 + 1 + 10));
});

test('a fragment under pages of different sizes costs each its own', () => {
  const fragment = 'fragment F on Article { title tags { name } }';
  expect(cost(`{ a: articles(pagination: { limit: 2 }) { ...F } b: articles_connection(pagination: { pageSize: 5 }) { nodes { ...F } } } ${fragment}`)).toBe(
    1 + 2 * (1 + 1 + 10) + (1 + (1 + 5 * (1 + 1 + 10))),
  );
});
