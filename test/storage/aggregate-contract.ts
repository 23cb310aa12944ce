import type { AggregateGroup, AggregateQuery, Collection, Store, StoredDocument, StoredValue } from '../../src/storage/types';
import { UnsafeFilterError } from '../../src/storage/filter-guard';

/**
 * `Collection.aggregate` on every engine (store-contract runs it): each expected value is computed here from
 * the documents written, the way the contract words it, and the engine's answer compared with it.
 */

const CATEGORIES = ['news', 'tech', null, 'sport'] as const;

/** 60 sales with every kind of value aggregated: integers, floats, big integers, dates, booleans, missing fields. */
const SALES: StoredDocument[] = Array.from({ length: 60 }, (_, index) => {
  const sale: StoredDocument = {
    id: index + 1,
    _status: index % 5 === 0 ? 'draft' : 'published',
    views: (index * 37) % 101,
    price: Math.round(((index * 13) % 50) * 1.25 * 100) / 100,
    // within a double's integers, as the test server, whose decimals are doubles, sums them
    big: `${index % 2 === 0 ? '-' : ''}${1234567891n * BigInt(index + 1)}`,
    day: `2024-0${(index % 9) + 1}-1${index % 10}`,
    featured: index % 3 === 0,
    seo: { score: index % 7 },
  };
  const category = CATEGORIES[index % CATEGORIES.length];
  // null and missing alike: one group
  if (category !== null) sale.category = category;
  else if (index % 8 === 2) sale.category = null;
  if (index % 4 === 1) delete sale.views;
  return sale;
});

const numbersOf = (documents: StoredDocument[], read: (document: StoredDocument) => StoredValue | undefined): number[] =>
  documents.map(read).filter((value): value is number => typeof value === 'number');
const sum = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((total, value) => total + value, 0));
const mean = (values: number[]): number | null => (values.length === 0 ? null : sum(values)! / values.length);
const least = <T extends number | string>(values: T[]): T | null => (values.length === 0 ? null : values.reduce((a, b) => (b < a ? b : a)));
const greatest = <T extends number | string>(values: T[]): T | null => (values.length === 0 ? null : values.reduce((a, b) => (b > a ? b : a)));
const bigSum = (documents: StoredDocument[]): string | null =>
  documents.length === 0 ? null : documents.reduce((total, document) => total + BigInt(document.big as string), 0n).toString();

const published = SALES.filter((sale) => sale._status === 'published');

const FULL_QUERY: AggregateQuery['accumulators'] = {
  count: { operator: 'count' },
  sumViews: { operator: 'sum', field: 'views' },
  avgViews: { operator: 'avg', field: 'views' },
  minViews: { operator: 'min', field: 'views' },
  maxViews: { operator: 'max', field: 'views' },
  sumPrice: { operator: 'sum', field: 'price' },
  sumBig: { operator: 'sum', field: 'big', integerText: true },
  minDay: { operator: 'min', field: 'day' },
  maxDay: { operator: 'max', field: 'day' },
  sumScore: { operator: 'sum', field: 'seo.score' },
};

/** What FULL_QUERY should answer for `documents`. */
const expectedValues = (documents: StoredDocument[]) => {
  const views = numbersOf(documents, (document) => document.views);
  const days = documents.map((document) => document.day as string);
  return {
    count: documents.length,
    sumViews: sum(views),
    avgViews: mean(views),
    minViews: least(views),
    maxViews: greatest(views),
    sumPrice: sum(numbersOf(documents, (document) => document.price)),
    sumBig: bigSum(documents),
    minDay: least(days),
    maxDay: greatest(days),
    sumScore: sum(numbersOf(documents, (document) => (document.seo as StoredDocument).score)),
  };
};

/** Floats compared to 9 digits: engines add in their own order. */
const expectValues = (actual: AggregateGroup['values'], expected: Record<string, number | string | null>): void => {
  for (const [name, value] of Object.entries(expected)) {
    if (typeof value === 'number' && !Number.isInteger(value)) expect(actual[name]).toBeCloseTo(value, 9);
    else expect([name, actual[name]]).toEqual([name, value]);
  }
};

const categoryOf = (document: StoredDocument): StoredValue => document.category ?? null;

export function aggregateContract(storeOf: () => Store): void {
  let sales: Collection;
  beforeEach(async () => {
    sales = storeOf().collection('sales');
    await sales.insertMany(SALES);
  });

  test('without groupBy: one group over the matches, every value computed from the documents', async () => {
    const [group, ...rest] = await sales.aggregate({ _status: 'published' }, { accumulators: FULL_QUERY });
    expect(rest).toEqual([]);
    expect(group.key).toEqual([]);
    expectValues(group.values, expectedValues(published));
  });

  test('a filter narrows what is aggregated', async () => {
    const filter = { _status: 'published', views: { $gt: 40 } };
    const matches = published.filter((sale) => typeof sale.views === 'number' && sale.views > 40);
    const [group] = await sales.aggregate(filter, { accumulators: FULL_QUERY });
    expectValues(group.values, expectedValues(matches));
  });

  test('no match: one group counted 0, every other value null', async () => {
    const groups = await sales.aggregate({ views: { $gt: 1000 } }, { accumulators: FULL_QUERY });
    expect(groups).toEqual([{ key: [], values: { ...Object.fromEntries(Object.keys(FULL_QUERY).map((name) => [name, null])), count: 0 } }]);
    expect(await storeOf().collection('never_written').aggregate({}, { accumulators: { count: { operator: 'count' } } })).toEqual([{ key: [], values: { count: 0 } }]);
  });

  test('numbers summed and grouped alone, before and after the field first holds another kind of value', async () => {
    // the embedded store sums a field that only ever held numbers from its index, without testing each value's type
    const scores = storeOf().collection('scores');
    await scores.insertMany([{ n: 1, g: 'a' }, { n: 2, g: 'a' }, { n: 4, g: 1 }]);
    const query: AggregateQuery = { groupBy: ['g'], accumulators: { sum: { operator: 'sum', field: 'n' }, count: { operator: 'count' } } };
    expect(await scores.aggregate({}, query)).toEqual([
      { key: [1], values: { sum: 4, count: 1 } },
      { key: ['a'], values: { sum: 3, count: 2 } },
    ]);
    // a boolean reads as 1 in SQL: $sum leaves it out, and a group of true is not the group of 1
    await scores.insertMany([{ n: true, g: true }, { n: '8', g: 'a' }]);
    expect(await scores.aggregate({}, query)).toEqual([
      { key: [1], values: { sum: 4, count: 1 } },
      { key: ['a'], values: { sum: 3, count: 3 } },
      { key: [true], values: { sum: null, count: 1 } },
    ]);
  });

  test('a sum or mean of no value is null, a count of documents without the field is not', async () => {
    const withoutViews = published.filter((sale) => sale.views === undefined);
    const [group] = await sales.aggregate({ _status: 'published', views: { $exists: false } }, { accumulators: FULL_QUERY });
    expect(group.values.count).toBe(withoutViews.length);
    expect(group.values.sumViews).toBeNull();
    expect(group.values.avgViews).toBeNull();
    expect(group.values.minViews).toBeNull();
    expectValues(group.values, expectedValues(withoutViews));
  });

  test('groupBy: one group per value, null and missing together, ordered by the value', async () => {
    const groups = await sales.aggregate({ _status: 'published' }, { groupBy: ['category'], accumulators: FULL_QUERY });
    const keys = [...new Set(published.map(categoryOf))].sort((a, b) => (a === null ? -1 : b === null ? 1 : String(a).localeCompare(String(b))));
    expect(groups.map((group) => group.key)).toEqual(keys.map((key) => [key]));
    for (const group of groups) expectValues(group.values, expectedValues(published.filter((sale) => categoryOf(sale) === group.key[0])));
  });

  test('groupBy booleans keeps them booleans; two fields group by both', async () => {
    const groups = await sales.aggregate({}, { groupBy: ['featured', '_status'], accumulators: { count: { operator: 'count' } } });
    const expected = [false, true].flatMap((featured) =>
      ['draft', 'published'].map((status) => ({ key: [featured, status], values: { count: SALES.filter((sale) => sale.featured === featured && sale._status === status).length } })),
    );
    expect(groups).toEqual(expected.filter((group) => group.values.count > 0));
  });

  test('groups sorted by an accumulator, ties by their value, then skipped and limited', async () => {
    const query: AggregateQuery = { groupBy: ['category'], accumulators: { count: { operator: 'count' }, total: { operator: 'sum', field: 'views' } }, sort: [['count', -1]] };
    const all = await sales.aggregate({}, query);
    const counts = all.map((group) => group.values.count as number);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    for (let i = 1; i < all.length; i++) {
      if (all[i].values.count === all[i - 1].values.count) expect(String(all[i - 1].key[0]) <= String(all[i].key[0]) || all[i - 1].key[0] === null).toBe(true);
    }
    expect(await sales.aggregate({}, { ...query, skip: 1, limit: 2 })).toEqual(all.slice(1, 3));
    const byTotal = await sales.aggregate({}, { ...query, sort: [['total', 1]] });
    const totals = byTotal.map((group) => group.values.total as number);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
  });

  test('refuses what no Folio query makes', async () => {
    await expect(sales.aggregate({ $where: '1' }, { accumulators: { count: { operator: 'count' } } })).rejects.toBeInstanceOf(UnsafeFilterError);
    await expect(sales.aggregate({}, { accumulators: { 'a b': { operator: 'count' } } })).rejects.toThrow(/accumulator name/);
    await expect(sales.aggregate({}, { accumulators: { total: { operator: 'sum', field: '$views' } } })).rejects.toThrow(/field of accumulator total/);
    await expect(sales.aggregate({}, { groupBy: ['a"b'], accumulators: {} })).rejects.toThrow(/groupBy field/);
    await expect(sales.aggregate({}, { accumulators: { count: { operator: 'count' } }, sort: [['views', 1]] })).rejects.toThrow(/sort key views/);
  });
}
