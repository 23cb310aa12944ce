import { createLruCache } from '../../src/common/lru-cache';

test('forgets the least recently used entry past maxEntries', () => {
  const cache = createLruCache<number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  expect(cache.get('a')).toBe(1);
  cache.set('c', 3);
  expect(cache.get('b')).toBeUndefined();
  expect([cache.get('a'), cache.get('c'), cache.size]).toEqual([1, 3, 2]);
});

test('bounded by weight: old entries go until the total fits, and an entry too heavy alone is not kept', () => {
  const cache = createLruCache<string>({ maxEntries: 100, maxWeight: 10, maxEntryWeight: 6, weigh: (key) => key.length });
  cache.set('aaaa', 'x');
  cache.set('bbbb', 'y');
  expect(cache.weight).toBe(8);
  cache.set('cccc', 'z');
  expect(cache.get('aaaa')).toBeUndefined();
  expect(cache.weight).toBe(8);
  cache.set('ddddddd', 'too heavy');
  expect(cache.get('ddddddd')).toBeUndefined();
  expect(cache.weight).toBe(8);
  cache.set('bbbb', 'again');
  expect([cache.get('bbbb'), cache.weight, cache.size]).toEqual(['again', 8, 2]);
});
