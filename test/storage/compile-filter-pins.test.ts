import { compileSelection, type FilterTarget } from '../../src/storage/embedded/compile-filter';
import { partitionRange } from '../../src/storage/embedded/text-rowid';
import { KIND } from '../../src/storage/embedded/path-kinds';

/**
 * A search on a trigram index split by status and locale reads the part of the filter's equalities, which
 * are then dropped, also when the searched field carries other operators; an equality it does not imply, or a
 * search inside `$or`, keeps them.
 */

const PART = 2;
const target: FilterTarget = {
  tables: { docs: 'c:items', multikey: 'm:items', text: 't:items' },
  of: (path) => (path === 'title' || path === '_status' || path === 'locale' || path === 'views' ? KIND.string : 0),
  textIndex: (path) =>
    path === 'title' ? { slot: 0, partition: ['_status', 'locale'], partitionNumber: (values) => (values === '["published","en"]' ? PART : undefined) } : undefined,
};

const compiled = (filter: Record<string, unknown>) => compileSelection(target, filter, '"c:items"');
const [first, last] = partitionRange(PART);
const readsPart = `rowid BETWEEN ${first} AND ${last}`;

test.each([
  ['the search alone', { title: { $regex: 'abc', $options: 'i' } }],
  ['the search with another operator on its field', { title: { $regex: 'abc', $options: 'i', $ne: 'abcd' } }],
])('%s: reads its part, and the equalities it implies go', (_, search) => {
  const selection = compiled({ ...search, _status: 'published', locale: 'en', views: 'many' });
  expect(selection.sql).toContain(readsPart);
  expect(selection.sql).not.toContain('$."_status"');
  expect(selection.sql).not.toContain('$."locale"');
  expect(selection.sql).toContain('$."views"');
});

test('inside $or, a search implies nothing: the equalities stay', () => {
  const selection = compiled({ $or: [{ title: { $regex: 'abc', $options: 'i' } }, { views: 'many' }], _status: 'published', locale: 'en' });
  expect(selection.sql).toContain('$."_status"');
  expect(selection.sql).toContain('$."locale"');
});
