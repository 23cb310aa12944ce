import { parseRestPagination } from '../../src/rest-compiler/rest-pagination';
import { parseRestSort } from '../../src/rest-compiler/rest-sort';
import { parseSortPaths } from '../../src/query/parse-sort';
import { parseStatus } from '../../src/rest-compiler/rest-scope';
import { errorOf, restFixture } from './rest-schema';

const limits = { defaultLimit: 25, maxLimit: 100 };
const { models } = restFixture();
const articleType = models.contentTypes.get('api::article.article')!;
/** REST's sort form, then the resolver's check of its keys, as a REST list request goes */
const sortOf = (value: unknown) => {
  const entries = parseRestSort(value);
  parseSortPaths(models, articleType, entries);
  return entries;
};

describe('REST pagination', () => {
  test('defaults, clamping and meta, page mode', () => {
    const page = parseRestPagination(undefined, limits);
    expect(page.argument).toEqual({ page: 1, pageSize: 25 });
    expect(page.meta(51)).toEqual({ page: 1, pageSize: 25, pageCount: 3, total: 51 });
    expect(parseRestPagination({ pageSize: '500' }, limits).argument).toEqual({ page: 1, pageSize: 100 });
    expect(parseRestPagination({ pageSize: '0', page: '-1' }, limits).argument).toEqual({ page: 1, pageSize: 1 });
    expect(parseRestPagination({ pageSize: '1', withCount: 'false' }, limits).meta(undefined)).toEqual({ page: 1, pageSize: 1 });
  });

  test('offset mode; limit=-1 is one row, as Strapi 5.54 REST answers', () => {
    const offset = parseRestPagination({ start: '1', limit: '1' }, limits);
    expect(offset.argument).toEqual({ start: 1, limit: 1 });
    expect(offset.meta(3)).toEqual({ start: 1, limit: 1, total: 3 });
    expect(parseRestPagination({ limit: '-1' }, limits).argument).toEqual({ start: 0, limit: 1 });
    // a v4 client's -1 meant all: the largest page
    expect(parseRestPagination({ limit: '-1' }, limits, true).argument).toEqual({ start: 0, limit: 100 });
    expect(parseRestPagination({ limit: '0' }, limits, true).argument).toEqual({ start: 0, limit: 1 });
  });

  test('errors: non-numeric, mixed modes, unknown keys', () => {
    expect(errorOf(() => parseRestPagination({ page: 'two' }, limits))).toMatchObject({ name: 'ValidationError' });
    expect(errorOf(() => parseRestPagination({ page: '1', start: '0' }, limits))).toEqual({
      name: 'PaginationError',
      message: 'Cannot use both page & offset pagination in the same query',
      details: {},
    });
    expect(errorOf(() => parseRestPagination({ size: '1' }, limits))).toMatchObject({ message: 'Invalid key size' });
    expect(errorOf(() => parseRestPagination({ withCount: 'maybe' }, limits))).toMatchObject({ name: 'ValidationError' });
  });
});

describe('REST sort and status', () => {
  test('every sort form becomes the GraphQL list', () => {
    expect(sortOf('title:desc')).toEqual(['title:desc']);
    expect(sortOf(['kind:asc', 'views:desc'])).toEqual(['kind:asc', 'views:desc']);
    expect(sortOf('kind,views:desc')).toEqual(['kind', 'views:desc']);
    expect(sortOf({ title: 'desc' })).toEqual(['title:desc']);
    expect(sortOf([{ title: 'desc' }, { views: 'asc' }])).toEqual(['title:desc', 'views:asc']);
  });

  test('unknown sort keys are named', () => {
    expect(errorOf(() => sortOf('nope:asc'))).toEqual({
      name: 'ValidationError',
      message: 'Invalid key nope',
      details: { key: 'nope', path: null, source: 'query', param: 'sort' },
    });
    expect(errorOf(() => sortOf('__proto__:asc'))).toMatchObject({ message: 'Invalid key __proto__' });
  });

  test("a related document's field, through owned to-one relations only", () => {
    expect(sortOf('category.name:desc,title')).toEqual(['category.name:desc', 'title']);
    expect(parseSortPaths(models, articleType, ['category.parent.name:desc', 'views'])).toEqual([
      { path: ['category', 'parent', 'name'], direction: -1 },
      { path: ['views'], direction: 1 },
    ]);
    for (const invalid of ['tags.name', 'category.nope', 'category.articles', 'title.length', 'category.__proto__', 'seo.metaTitle', 'category']) {
      expect(errorOf(() => sortOf(invalid))).toMatchObject({ message: `Invalid key ${invalid}`, details: { key: invalid, param: 'sort' } });
    }
  });

  test('status is draft or published, nothing else', () => {
    expect(parseStatus('draft')).toBe('DRAFT');
    expect(parseStatus('published')).toBe('PUBLISHED');
    expect(parseStatus(undefined)).toBeUndefined();
    expect(errorOf(() => parseStatus('garbage'))).toMatchObject({ details: { key: 'status', param: 'status' } });
  });
});
