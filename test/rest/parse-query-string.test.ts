import { parseBuiltQuery, parseQueryString, QUERY_PARAMETERS } from '../../src/rest-compiler/parse-query-string';
import { errorOf } from './rest-schema';

const ALL = new Set(QUERY_PARAMETERS);

describe('parseQueryString', () => {
  test("parses with Strapi's qs options: long arrays stay arrays, a bare key is null", () => {
    const values = Array.from({ length: 30 }, (_, index) => `filters[id][$in][${index}]=${index}`).join('&');
    const parsed = parseQueryString(`?${values}&filters[slug][$null]`, ALL);
    expect((parsed.filters as { id: { $in: string[] } }).id.$in).toHaveLength(30);
    expect((parsed.filters as { slug: unknown }).slug).toEqual({ $null: null });
  });

  test('decodes percent-encoded brackets as the official SDK sends them', () => {
    expect(parseQueryString('filters%5Btitle%5D%5B%24eq%5D=x&sort%5B0%5D=title', ALL)).toEqual({ filters: { title: { $eq: 'x' } }, sort: ['title'] });
  });

  test.each(['__proto__[x]=1', 'filters[constructor][prototype]=1', 'filters[title][toString]=1', 'populate%5B__proto__%5D=1'])(
    'refuses prototype keys instead of dropping them: %s',
    (search) => {
      expect(errorOf(() => parseQueryString(search, ALL))).toMatchObject({ name: 'ValidationError', details: { source: 'query' } });
    },
  );

  test('unknown top-level keys are ignored, as Strapi ignores them (cache-busters, analytics tags)', () => {
    expect(parseQueryString('foo=1&_=1700000000&utm_source=x&sort=title', ALL)).toEqual({ sort: 'title' });
    expect(parseQueryString('filters[a]=1&locale=fr', new Set(['locale'] as const))).toEqual({ locale: 'fr' });
    expect(parseQueryString('', ALL)).toEqual({});
  });

  test('with strict (api.rest.strictQuery), only the parameters the route takes are accepted', () => {
    expect(errorOf(() => parseQueryString('foo=bar', ALL, true))).toEqual({
      name: 'ValidationError',
      message: 'Invalid key foo',
      details: { key: 'foo', path: null, source: 'query' },
    });
    expect(errorOf(() => parseQueryString('filters[a]=1', new Set(['locale'] as const), true))).toMatchObject({ message: 'Invalid key filters' });
  });
});

describe('parseBuiltQuery: a query object built in code, read as a client query string is', () => {
  const allowed = new Set(['filters', 'pagination', 'populate'] as const);
  test('lists keep every item, an empty list stays empty (not a dropped filter), numbers read as text', () => {
    const ids = Array.from({ length: 150 }, (_, index) => `doc-${index}`);
    const parsed = parseBuiltQuery({ filters: { documentId: { $in: ids }, id: { $in: [] } }, pagination: { pageSize: 10 }, populate: { seo: true }, cacheBuster: 1 }, allowed);
    expect(parsed).toEqual({ filters: { documentId: { $in: ids }, id: { $in: [] } }, pagination: { pageSize: '10' }, populate: { seo: 'true' } });
  });
  test('a key naming an Object.prototype member is refused, not dropped', () => {
    expect(() => parseBuiltQuery({ filters: { constructor: { $eq: 'x' } } }, allowed)).toThrow(/Invalid key constructor/);
  });
});
