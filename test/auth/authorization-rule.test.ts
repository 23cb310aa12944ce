import { makeExecutableSchema } from '@graphql-tools/schema';
import { parse } from 'graphql';
import { applyFieldAuth, DIRECTIVE_SDL } from '../../src/directives/index';
import { findForbidden } from '../../src/graphql/plugins/use-authorization';
import { createRolePrincipal, createTokenPrincipal } from '../../src/auth/principal';

/** The one authorization check, run before execution on the operation that will run. */

const schema = applyFieldAuth(
  makeExecutableSchema({
    typeDefs: `${DIRECTIVE_SDL}
      scalar JSON
      type Category { name: String }
      type Article { title: String category: Category @auth(scope: ["api::category.category.find"]) }
      type Query {
        articles: [Article] @auth(scope: ["api::article.article.find"])
        custom: String
        open: String
      }
      type Mutation { createArticle: Article @auth(scope: ["api::article.article.create"]) }`,
  }),
  new Map([['Query.open', false]]),
);

const reader = createRolePrincipal('public', 'public', new Set(['api::article.article.find']), 0);
const user = createRolePrincipal('user', 'authenticated', new Set(['api::article.article.find']), 0, { user: { id: 1 } });
const forbidden = (query: string, principal = reader, operationName?: string) =>
  findForbidden(schema, parse(query), principal, operationName).map((error) => error.extensions.error);

test('a granted root field passes; a missing grant is FORBIDDEN', () => {
  expect(forbidden('{ articles { title } }')).toEqual([]);
  expect(forbidden('mutation { createArticle { title } }')).toEqual([{ name: 'ForbiddenError', message: 'Forbidden access', details: {} }]);
});

test.each([
  ['directly', '{ articles { category { name } } }'],
  ['in a fragment', '{ articles { ...A } } fragment A on Article { category { name } }'],
  ['in an inline fragment', '{ articles { ... on Article { category { name } } } }'],
  ['in a fragment of a fragment', '{ ...Q } fragment Q on Query { articles { ...A } } fragment A on Article { category { name } }'],
  ['under an alias', '{ articles { c: category { name } } }'],
])('a relation needs find on its target, selected %s', (_, query) => {
  expect(forbidden(query)).toHaveLength(1);
});

test('only the operation that runs counts, with the fragments it reaches', () => {
  const document = 'query A { articles { title } } query B { articles { ...C } } fragment C on Article { category { name } }';
  expect(forbidden(document, reader, 'A')).toEqual([]);
  expect(forbidden(document, reader, 'B')).toHaveLength(1);
});

test('a root field with no auth declared is for authenticated callers; auth: false is for everyone', () => {
  expect(forbidden('{ custom }')).toHaveLength(1);
  expect(forbidden('{ custom }', user)).toEqual([]);
  expect(forbidden('{ custom }', createTokenPrincipal('ci', 'read-only', new Set()))).toEqual([]);
  expect(forbidden('{ open }')).toEqual([]);
});

test('introspection and __typename are not fields to authorize', () => {
  expect(forbidden('{ __typename __schema { queryType { name } } }')).toEqual([]);
});

test('API token types', () => {
  const readOnly = createTokenPrincipal('r', 'read-only', new Set());
  expect(readOnly.can('api::article.article.find') && readOnly.can('api::article.article.findOne')).toBe(true);
  expect(readOnly.can('api::article.article.create') || readOnly.can('plugin::users-permissions.user.me')).toBe(false);
  const custom = createTokenPrincipal('c', 'custom', new Set(['api::tag.tag.create']));
  expect([custom.can('api::tag.tag.create'), custom.can('api::tag.tag.find')]).toEqual([true, false]);
  expect(createTokenPrincipal('f', 'full-access', new Set()).can('anything::at.all')).toBe(true);
});
