import { assertSafeFilter } from '../../src/storage/filter-guard';
import type { Filter } from '../../src/storage/types';

const refusal = (filter: unknown): string | undefined => {
  try {
    assertSafeFilter(filter as Filter);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

test('a refusal names where in the filter the value sits', () => {
  expect(refusal({ views: { $in: [1, 2, Infinity] } })).toBe('non-finite number at views.$in[2]');
  expect(refusal({ $and: [{ title: 'a' }, { $or: [{ views: { $where: 'sleep(1)' } }] }] })).toBe('operator $where not allowed at $and[1].$or[0].views.$where');
  expect(refusal({ 'author.__proto__.name': 'x' })).toBe('key author.__proto__.name not allowed at author.__proto__.name');
  expect(refusal({ tags: { $elemMatch: { constructor: 1 } } })).toBe('key constructor not allowed at tags.$elemMatch.constructor');
  expect(refusal({ $where: '1' })).toBe('operator $where not allowed at $where');
  expect(refusal({ published: { $eq: new Date(0) } })).toBe('value of type Date not allowed at published.$eq');
  expect(refusal([])).toBe('filter must be a plain object, got Array at (root)');
});

test('a filter nested past 64 levels is refused; plain JSON of every allowed shape passes', () => {
  let deep: Record<string, unknown> = { views: 1 };
  for (let level = 0; level < 70; level++) deep = { $and: [deep] };
  expect(refusal(deep)).toMatch(/^filter nested too deeply at (\$and\[0\]\.)+\$and$/);
  expect(refusal({ title: { $regex: 'a', $options: 'i' }, views: { $in: [1, 2], $gte: 0 }, 'author.name': null, flags: { $elemMatch: { $eq: true } } })).toBeUndefined();
});
