import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { CollectionState } from './collection-state';

/**
 * When a trigram index deserves a full merge of its segments into one. FTS5 writes a segment per commit and
 * merges them by levels, so an index built by batches keeps a dozen segments, each searched for every
 * trigram of a query: at 200,000 articles, 11 segments made a title search's full-text lookup 0.59 ms, one
 * segment 0.30 ms. A merge rewrites the whole index (0.9 s at 200,000 articles, on a reader thread), so it is
 * due once its entries written since the last one reach a quarter of the index (and at least MIN_ROWS): its
 * cost stays proportional to the writes. Small segments that single writes add later cost little to search.
 */

const MIN_ROWS = 5000;
/** segments past which an index found at open is merged */
const FRAGMENTED = 4;

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export interface TextIndexMerges {
  /** one entry of a collection's trigram index written or removed */
  written(state: CollectionState): void;
  /** the FTS tables due a full merge now, counted from zero again; at the first call, those found fragmented */
  due(states: Iterable<CollectionState>): string[];
}

export function createTextIndexMerges(sqlite: SqliteDatabase): TextIndexMerges {
  const written = new Map<string, number>();
  let checkedAtOpen = false;

  const segments = (state: CollectionState): number =>
    (sqlite.prepare(`SELECT count(DISTINCT segid) AS n FROM ${quote(`${state.tables.text}_idx`)}`).get() as { n: number }).n;

  /** entries of the index, from the highest key (every document ever inserted, for each text path) */
  const estimatedEntries = (state: CollectionState): number =>
    ((sqlite.prepare(`SELECT max(k) AS n FROM ${quote(state.tables.docs)}`).get() as { n: number | null }).n ?? 0) * state.textPaths.length;

  return {
    written(state) {
      written.set(state.tables.text, (written.get(state.tables.text) ?? 0) + 1);
    },
    due(states) {
      const tables: string[] = [];
      for (const state of states) {
        if (!state.created || state.textPaths.length === 0) continue;
        const rows = written.get(state.tables.text) ?? 0;
        const fragmented = !checkedAtOpen && segments(state) > FRAGMENTED;
        if (fragmented || (rows >= MIN_ROWS && rows >= estimatedEntries(state) / 4)) {
          written.set(state.tables.text, 0);
          tables.push(state.tables.text);
        }
      }
      checkedAtOpen = true;
      return tables;
    },
  };
}
