import { createCountCache, type CountCache } from '../../src/storage/embedded/count-cache';
import type { StoredDocument } from '../../src/storage/types';

/** a write, committed on its own */
const commit = (counts: CountCache, before: StoredDocument | undefined, after: StoredDocument | undefined): number => {
  const generation = counts.written(before, after === undefined ? undefined : JSON.stringify(after));
  counts.committed();
  return generation;
};

describe('count cache', () => {
  test('a remembered total moves by what its filter says of the documents a write replaced and stored', () => {
    const counts = createCountCache();
    counts.remember('published', { _status: 'published' }, 10, 0);
    counts.remember('big', { n: { $gte: 100 } }, 3, 0);
    expect(commit(counts, undefined, { _status: 'published', n: 150 })).toBe(1);
    expect([counts.get('published'), counts.get('big')]).toEqual([11, 4]);
    commit(counts, { _status: 'published', n: 150 }, { _status: 'draft', n: 150 });
    expect([counts.get('published'), counts.get('big')]).toEqual([10, 4]);
    commit(counts, { _status: 'draft', n: 150 }, undefined);
    expect([counts.get('published'), counts.get('big')]).toEqual([10, 3]);
    expect(counts.generation).toBe(3);
    counts.reset(2);
    expect(counts.get('published')).toBeUndefined();
    expect(counts.generation).toBe(2);
  });

  test('a total counted before the last writes has them played onto it', () => {
    const counts = createCountCache(5);
    commit(counts, undefined, { _status: 'published' });
    commit(counts, undefined, { _status: 'draft' });
    commit(counts, { _status: 'published' }, undefined);
    commit(counts, undefined, { _status: 'published' });
    // counted on a snapshot that saw the first of the four writes (generation 6)
    counts.remember('published', { _status: 'published' }, 40, 6);
    expect(counts.get('published')).toBe(40);
    counts.remember('published at 5', { _status: 'published' }, 39, 5);
    expect(counts.get('published at 5')).toBe(40);
    // one that saw them all
    counts.remember('drafts', { _status: 'draft' }, 7, 9);
    expect(counts.get('drafts')).toBe(7);
  });

  test('a total counted before writes no longer kept is not remembered', () => {
    const counts = createCountCache();
    for (let i = 0; i < 1100; i++) commit(counts, undefined, { n: i });
    counts.remember('early', { n: { $gte: 0 } }, 10, 10);
    expect(counts.get('early')).toBeUndefined();
    counts.remember('recent', { n: { $gte: 0 } }, 1000, 1000);
    expect(counts.get('recent')).toBe(1100);
  });

  test('an operation writing more than 16 rows forgets the totals instead of moving them row by row', () => {
    const counts = createCountCache();
    counts.remember('all', {}, 5, 0);
    counts.writing(16);
    expect(counts.get('all')).toBe(5);
    counts.writing(17);
    expect(counts.get('all')).toBeUndefined();
  });

  test('holds at most 256 totals, forgetting the oldest first', () => {
    const counts = createCountCache();
    for (let i = 0; i <= 256; i++) counts.remember(`f${i}`, { n: i }, i, 0);
    expect(counts.get('f0')).toBeUndefined();
    expect(counts.get('f1')).toBe(1);
    expect(counts.get('f256')).toBe(256);
  });

  test('totals of 2,000 or more are kept apart: a stream of small ones does not push them out', () => {
    const counts = createCountCache();
    counts.remember('common word', { title: { $regex: 'a', $options: 'i' } }, 50_000, 0);
    for (let i = 0; i < 1000; i++) counts.remember(`f${i}`, { n: i }, i, 0);
    expect(counts.get('common word')).toBe(50_000);
    commit(counts, undefined, { title: 'A new one' });
    expect(counts.get('common word')).toBe(50_001);
    // at most 128 of them, the oldest first out
    for (let i = 0; i < 128; i++) counts.remember(`large ${i}`, { n: i }, 2000 + i, 1);
    expect(counts.get('common word')).toBeUndefined();
    expect(counts.get('large 0')).toBe(2000);
  });

  test('a total is moved by the writes since it was last asked for when it is asked for, not at every write', () => {
    const counts = createCountCache();
    counts.remember('titled', { title: { $regex: 'a', $options: 'i' } }, 3, 0);
    let reads = 0;
    const removed = Object.defineProperty({}, 'title', { enumerable: true, get: () => (reads++, 'An old one') });
    commit(counts, removed, undefined);
    commit(counts, undefined, { title: 'another' });
    expect(reads).toBe(0);
    expect(counts.get('titled')).toBe(3);
    expect(reads).toBe(1);
    // asked again without writes between: nothing to play
    expect(counts.get('titled')).toBe(3);
    expect(reads).toBe(1);
  });
});

describe('count cache and an open transaction', () => {
  const published = { _status: 'published' };

  test('totals are kept as of the last commit: the open transaction’s writes count for its own reads only', () => {
    const counts = createCountCache();
    counts.remember('published', published, 3, 0);
    counts.written(undefined, JSON.stringify(published));
    expect(counts.get('published')).toBe(3);
    expect(counts.get('published', true)).toBe(4);
    counts.committed();
    expect(counts.get('published')).toBe(4);
  });

  test('a total counted inside the open transaction has its writes taken out for the reads outside it', () => {
    const counts = createCountCache();
    counts.written(undefined, JSON.stringify(published));
    // counted on the transaction's connection, which sees the write (generation 1)
    counts.remember('published', published, 4, 1);
    expect(counts.get('published')).toBe(3);
    expect(counts.get('published', true)).toBe(4);
  });

  test('a savepoint undone inside the transaction drops its writes and keeps the totals and the writes before it', () => {
    const counts = createCountCache();
    counts.remember('published', published, 3, 0);
    counts.written(undefined, JSON.stringify(published));
    counts.written(undefined, JSON.stringify(published));
    counts.undo(1);
    expect(counts.generation).toBe(1);
    expect(counts.get('published', true)).toBe(4);
    counts.committed();
    expect(counts.get('published')).toBe(4);
    counts.written(undefined, JSON.stringify(published));
    counts.committed();
    expect(counts.get('published')).toBe(5);
  });
});
