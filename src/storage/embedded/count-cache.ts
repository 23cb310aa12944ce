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
  const totals = new Map<string, Total>();
  return {
    get: (key) => totals.get(key)?.n,
    remember(key, filter, n) {
      if (totals.size >= MAX_TOTALS) totals.delete(totals.keys().next().value as string);
      totals.set(key, { n, matches: createMatcher(filter) });
    },
    written(before, after) {
      for (const total of totals.values()) {
        if (before && total.matches(before)) total.n--;
        if (after && total.matches(after)) total.n++;
      }
    },
    get watching() {
      return totals.size > 0;
    },
    writing(rows) {
      if (rows > MAX_MOVED_ROWS) totals.clear();
    },
    clear: () => totals.clear(),
  };
}
