import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { CollectionState } from './collection-state';

/**
 * When a trigram index deserves a full merge of its segments into one. FTS5 writes a segment per commit and
 * merges them by levels, so an index built by batches keeps a dozen segments, each searched for every
 * trigram of a query: at 200,000 articles, 11 segments made a title search's full-text lookup 0.59 ms, one
 * segment 0.30 ms. A merge rewrites the whole index (0.9 s at 200,000 articles, on a thread of its own), so it is
 * due once its entries written since the last one reach a quarter of the index (and at least MIN_ROWS): its
 * cost stays proportional to the writes. Small segments that single writes add later cost little to search;
 * the tombstones their deletes leave cost more, and a merge removes them only until the next few hundred
 * (docs/embedded-store.md).
 */

const MIN_ROWS = 5000;
/**
 * An index found at open is merged when more than one of its segments holds a tenth of its pages or more:
 * left by batches. The small segments single writes add are cheap to search, and merging them into the big
 * one at every start would rewrite the whole index each time.
 */
const LARGE_SHARE = 0.1;

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export interface TextIndexMerges {
  /** one entry of a collection's trigram index written or removed */
  written(state: CollectionState): void;
  /** its index merged here: its writes count from zero again */
  merged(state: CollectionState): void;
  /** the FTS tables whose entries written since their last merge call for one now; they count from zero again */
  due(states: Iterable<CollectionState>): string[];
  /** the FTS tables left fragmented (by batches, by an earlier process) */
  fragmented(states: Iterable<CollectionState>): string[];
}

const withText = (states: Iterable<CollectionState>): CollectionState[] => [...states].filter((state) => state.created && state.textPaths.length > 0);

export function createTextIndexMerges(sqlite: SqliteDatabase): TextIndexMerges {
  const written = new Map<string, number>();

  const fragmented = (state: CollectionState): boolean => {
    // a segment's entries in `_idx` are its leaf pages, one by one
    const pages = (sqlite.prepare(`SELECT count(*) AS n FROM ${quote(`${state.tables.text}_idx`)} GROUP BY segid`).all() as Array<{ n: number }>).map(({ n }) => n);
    const total = pages.reduce((sum, n) => sum + n, 0);
    return pages.filter((n) => n >= total * LARGE_SHARE).length > 1;
  };

  /** entries of the index, from the highest key (every document ever inserted, for each text path) */
  const estimatedEntries = (state: CollectionState): number =>
    ((sqlite.prepare(`SELECT max(k) AS n FROM ${quote(state.tables.docs)}`).get() as { n: number | null }).n ?? 0) * state.textPaths.length;

  return {
    written(state) {
      written.set(state.tables.text, (written.get(state.tables.text) ?? 0) + 1);
    },
    merged(state) {
      written.delete(state.tables.text);
    },
    due(states) {
      const due = withText(states).filter((state) => {
        const rows = written.get(state.tables.text) ?? 0;
        return rows >= MIN_ROWS && rows >= estimatedEntries(state) / 4;
      });
      for (const state of due) written.set(state.tables.text, 0);
      return due.map((state) => state.tables.text);
    },
    fragmented: (states) => withText(states).filter(fragmented).map((state) => state.tables.text),
  };
}
