import { errorOf, restFixture } from './rest-schema';

const { filters } = restFixture();
const convert = (input: unknown) => filters.convert('ArticleFiltersInput', input);

describe('REST filters → FiltersInput', () => {
  test('drops the $ of operators and logical keys', () => {
    expect(convert({ title: { $containsi: 'x' }, $or: [{ kind: { $eq: 'news' } }, { $not: { featured: { $eq: 'true' } } }] })).toEqual({
      title: { containsi: 'x' },
      or: [{ kind: { eq: 'news' } }, { not: { featured: { eq: true } } }],
    });
  });

  test('turns query-string strings into the scalar each operator expects', () => {
    expect(convert({ views: { $gt: '10', $in: ['1', '2'] }, rating: { $between: ['1.5', '4'] }, slug: { $null: 'true' } })).toEqual({
      views: { gt: 10, in: [1, 2] },
      rating: { between: [1.5, 4] },
      slug: { null: true },
    });
  });

  test('deep filters go through relations; shorthand values mean $eq and $in', () => {
    expect(convert({ category: { name: { $eq: 'Tech' } }, kind: ['news', 'opinion'], title: 'Hello' })).toEqual({
      category: { name: { eq: 'Tech' } },
      kind: { in: ['news', 'opinion'] },
      title: { eq: 'Hello' },
    });
  });

  test("a field's $and/$or of operator objects is lifted to the enclosing filters, where Strapi's types take it", () => {
    expect(convert({ title: { $or: [{ $contains: 'x' }, 'Hello', { $startsWith: 'S', $endsWith: 't' }], $ne: 'y' } })).toEqual({
      and: [{ title: { ne: 'y' } }, { or: [{ title: { contains: 'x' } }, { title: { eq: 'Hello' } }, { title: { startsWith: 'S', endsWith: 't' } }] }],
    });
    expect(convert({ kind: { $eq: 'news' }, views: { $not: { $and: [{ $gt: '1' }, { $lt: '9' }] } } })).toEqual({
      and: [{ kind: { eq: 'news' } }, { not: { and: [{ views: { gt: 1 } }, { views: { lt: 9 } }] } }],
    });
    expect(convert({ category: { name: { $and: [{ $containsi: 'te' }] } } })).toEqual({ category: { and: [{ name: { containsi: 'te' } }] } });
  });

  test("a field's $and/$or of bare values stays a list of values, each an implicit $eq", () => {
    expect(convert({ views: { $or: ['10', '20'] }, title: { $and: ['a', null] } })).toEqual({ views: { or: [10, 20] }, title: { and: ['a', null] } });
  });

  test('qs objects keyed by index (lists past arrayLimit) are read back as lists', () => {
    expect(convert({ views: { $in: { 101: '3', 100: '2' } } })).toEqual({ views: { in: [2, 3] } });
  });

  test("errors name the key and its path, as Strapi's", () => {
    expect(errorOf(() => convert({ title: { $foo: 'x' } }))).toEqual({
      name: 'ValidationError',
      message: 'Invalid key $foo at title',
      details: { key: '$foo', path: 'title', source: 'query', param: 'filters' },
    });
    expect(errorOf(() => convert({ nope: { $eq: 'x' } }))).toMatchObject({ message: 'Invalid key nope', details: { key: 'nope', path: null } });
    expect(errorOf(() => convert({ views: { $gt: 'abc' } }))).toMatchObject({ details: { key: '$gt', path: 'views', param: 'filters' } });
    expect(errorOf(() => convert({ featured: { $eq: 'yes' } }))).toMatchObject({ details: { key: '$eq', path: 'featured' } });
    expect(errorOf(() => convert({ $or: 'notarray' }))).toMatchObject({ name: 'ValidationError' });
    expect(errorOf(() => convert({ title: { eq: 'x' } }))).toMatchObject({ message: 'Invalid key eq at title' });
    expect(errorOf(() => convert({ or: [] }))).toMatchObject({ message: 'Invalid key or' });
    expect(errorOf(() => convert({ cover: { $null: 'true' } }))).toMatchObject({ message: 'Invalid key cover' });
    expect(errorOf(() => convert({ title: { $or: [{ $foo: 'x' }] } }))).toMatchObject({ message: 'Invalid key $foo at title.$or', details: { key: '$foo', path: 'title.$or' } });
    expect(errorOf(() => convert({ views: { $and: [{ $gt: 'abc' }] } }))).toMatchObject({ details: { key: '$gt', path: 'views.$and' } });
  });
});
