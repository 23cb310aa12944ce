import type { Filter, StoredDocument } from '../types';
import { createMatcher, type Matcher } from '../create-matcher';

/**
 * Totals by filter, kept exact across writes: a write tells the cache the document it replaced or removed
 * and the one it stored, and each remembered total moves by what its filter says of the two (the in-memory
 * matcher, the semantics the SQL conditions are checked against). A list page asks for the same total again
 * and again; recounting 200,000 index entries after every write took 15 ms on the main thread.
 */

/** totals remembered at most; the oldest goes first */
const MAX_TOTALS = 256;
/**
 * Totals this large cost a recount of as many rows (a search for a common word: 60 ms at 200,000 articles), and
 * they choose how a page is read (embedded-collection): the largest are kept apart, so that a stream of small
 * ones does not push them out.
 */
const LARGE_TOTAL = 2000;
const MAX_LARGE_TOTALS = 128;
/**
 * rows one operation may write and still move the totals; past it they are dropped instead: moving 256
 * totals costs up to 512 matcher runs per row, seconds of main thread for a few thousand rows
 */
const MAX_MOVED_ROWS = 16;

interface Total {
  n: number;
  matches: Matcher;
}

export interface CountCache {
  get(key: string): number | undefined;
  remember(key: string, filter: Filter, total: number): void;
  /** a document left the collection (`before`), entered it (`after`), or both (a replacement) */
  written(before: StoredDocument | undefined, after: StoredDocument | undefined): void;
  /** whether any total is remembered: only then does a write need its documents */
  readonly watching: boolean;
  /** an operation is about to write `rows` rows: too many to move the totals by, they are forgotten */
  writing(rows: number): void;
  clear(): void;
}

export function createCountCache(): CountCache {
  const small = new Map<string, Total>();
  const large = new Map<string, Total>();
  const pools = [small, large];
  const clear = (): void => pools.forEach((pool) => pool.clear());
  return {
    get: (key) => (small.get(key) ?? large.get(key))?.n,
    remember(key, filter, n) {
      const [pool, max] = n >= LARGE_TOTAL ? [large, MAX_LARGE_TOTALS] : [small, MAX_TOTALS];
      small.delete(key);
      large.delete(key);
      if (pool.size >= max) pool.delete(pool.keys().next().value as string);
      pool.set(key, { n, matches: createMatcher(filter) });
    },
    written(before, after) {
      for (const pool of pools) {
        for (const total of pool.values()) {
          if (before && total.matches(before)) total.n--;
          if (after && total.matches(after)) total.n++;
        }
      }
    },
    get watching() {
      return small.size > 0 || large.size > 0;
    },
    writing(rows) {
      if (rows > MAX_MOVED_ROWS) clear();
    },
    clear,
  };
}
