import { createCountCache } from '../../src/storage/embedded/count-cache';

describe('count cache', () => {
  test('a remembered total moves by what its filter says of the documents a write replaced and stored', () => {
    const counts = createCountCache();
    expect(counts.watching).toBe(false);
    counts.remember('published', { _status: 'published' }, 10);
    counts.remember('big', { n: { $gte: 100 } }, 3);
    expect(counts.watching).toBe(true);
    counts.written(undefined, { _status: 'published', n: 150 });
    expect([counts.get('published'), counts.get('big')]).toEqual([11, 4]);
    counts.written({ _status: 'published', n: 150 }, { _status: 'draft', n: 150 });
    expect([counts.get('published'), counts.get('big')]).toEqual([10, 4]);
    counts.written({ _status: 'draft', n: 150 }, undefined);
    expect([counts.get('published'), counts.get('big')]).toEqual([10, 3]);
    counts.clear();
    expect(counts.get('published')).toBeUndefined();
  });

  test('an operation writing more than 16 rows forgets the totals instead of moving them row by row', () => {
    const counts = createCountCache();
    counts.remember('all', {}, 5);
    counts.writing(16);
    expect(counts.get('all')).toBe(5);
    counts.writing(17);
    expect(counts.get('all')).toBeUndefined();
    expect(counts.watching).toBe(false);
  });

  test('holds at most 256 totals, forgetting the oldest first', () => {
    const counts = createCountCache();
    for (let i = 0; i <= 256; i++) counts.remember(`f${i}`, { n: i }, i);
    expect(counts.get('f0')).toBeUndefined();
    expect(counts.get('f1')).toBe(1);
    expect(counts.get('f256')).toBe(256);
  });

  test('totals of 2,000 or more are kept apart: a stream of small ones does not push them out', () => {
    const counts = createCountCache();
    counts.remember('common word', { title: { $regex: 'a', $options: 'i' } }, 50_000);
    for (let i = 0; i < 1000; i++) counts.remember(`f${i}`, { n: i }, i);
    expect(counts.get('common word')).toBe(50_000);
    counts.written(undefined, { title: 'A new one' });
    expect(counts.get('common word')).toBe(50_001);
    // at most 128 of them, the oldest first out
    for (let i = 0; i < 128; i++) counts.remember(`large ${i}`, { n: i }, 2000 + i);
    expect(counts.get('common word')).toBeUndefined();
    expect(counts.get('large 0')).toBe(2000);
  });
});
