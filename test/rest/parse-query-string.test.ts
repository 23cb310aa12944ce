import { parseQueryString, QUERY_PARAMETERS } from '../../src/rest/parse-query-string';
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

  test('only the known parameters are accepted, each route its own', () => {
    expect(errorOf(() => parseQueryString('foo=bar', ALL))).toEqual({
      name: 'ValidationError',
      message: 'Invalid key foo',
      details: { key: 'foo', path: null, source: 'query' },
    });
    expect(errorOf(() => parseQueryString('filters[a]=1', new Set(['locale'] as const)))).toMatchObject({ message: 'Invalid key filters' });
    expect(parseQueryString('', ALL)).toEqual({});
  });
});
