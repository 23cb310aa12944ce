import type { Filter, IndexSpec, SortSpec, StoredDocument } from '../types';
import { createSortedViews } from './sorted-views';
import { createFieldLookups } from './field-lookups';
import { createUniqueIndex, type UniqueIndex } from './unique-index';

/**
 * The in-memory copy of one collection: documents by internal key, kept in key order (which is insertion
 * order, MongoDB's natural order), and its unique indexes. Documents are never mutated in place: a change
 * replaces the whole document, so previous versions can be kept for rollback and handed out safely.
 */
export interface CollectionTable {
  readonly name: string;
  readonly documents: ReadonlyMap<number, StoredDocument>;
  readonly indexes: readonly IndexSpec[];
  allocateKey(): number;
  /** stores `document` under `key` (removes it when undefined) and returns what was there; on a unique violation throws and changes nothing */
  put(key: number, document: StoredDocument | undefined): StoredDocument | undefined;
  /** on a unique violation among existing documents throws and changes nothing */
  addIndex(spec: IndexSpec): void;
  removeIndex(name: string): void;
  /** internal keys of every document in `sort` order (ties in key order), kept up to date across writes */
  sortedView(sort: SortSpec): readonly number[];
  /** internal keys, in key order, of the only documents that can match `filter`; undefined when every document can */
  candidates(filter: Filter): number[] | undefined;
  /** `count()` for `filter`, remembered until the next write: lists ask for the same totals page after page */
  cachedCount(filter: Filter, count: () => number): number;
  /** the internal keys a query (named by `cacheKey`) returns, remembered until the next write */
  cachedKeys(cacheKey: string, query: () => number[]): number[];
}

/** Distinct filters whose counts are remembered per collection; past this the memory starts over. */
const MAX_CACHED_COUNTS = 256;
/** Distinct queries whose results (internal keys of one page) are remembered per collection. */
const MAX_CACHED_RESULTS = 256;

export function createCollectionTable(
  name: string,
  documents: Map<number, StoredDocument>,
  indexes: readonly IndexSpec[],
): CollectionTable {
  let nextKey = 1;
  for (const key of documents.keys()) nextKey = Math.max(nextKey, key + 1);
  const definitions: IndexSpec[] = [];
  const uniques: UniqueIndex[] = [];

  function addIndex(spec: IndexSpec): void {
    if (spec.unique) {
      const index = createUniqueIndex(name, spec);
      for (const [key, document] of documents) {
        const entry = index.entryOf(document);
        if (entry === null) continue;
        index.assertFree(entry, key);
        index.add(entry, key);
      }
      uniques.push(index);
    }
    definitions.push(spec);
  }

  // a rolled-back delete puts an old key back at the end of the Map; scans must stay in key order
  function restoreKeyOrder(): void {
    const ordered = [...documents].sort(([left], [right]) => left - right);
    documents.clear();
    for (const [key, document] of ordered) documents.set(key, document);
  }

  for (const spec of indexes) addIndex(spec);

  const sortedViews = createSortedViews(documents);
  const lookups = createFieldLookups(documents);
  const counts = new Map<string, number>();
  const results = new Map<string, number[]>();

  return {
    name,
    documents,
    indexes: definitions,
    allocateKey: () => nextKey++,
    put(key, document) {
      const previous = documents.get(key);
      const changes = uniques.map((index) => ({
        index,
        before: previous ? index.entryOf(previous) : null,
        after: document ? index.entryOf(document) : null,
      }));
      for (const { index, after } of changes) if (after !== null) index.assertFree(after, key);
      for (const { index, before, after } of changes) {
        if (before !== null) index.remove(before, key);
        if (after !== null) index.add(after, key);
      }
      if (!document) documents.delete(key);
      else {
        documents.set(key, document);
        if (!previous && key < nextKey - 1) restoreKeyOrder();
      }
      sortedViews.changed(key);
      lookups.changed(key, previous, document);
      counts.clear();
      results.clear();
      return previous;
    },
    addIndex,
    sortedView: (sort) => sortedViews.view(sort),
    candidates: (filter) => lookups.candidates(filter),
    cachedKeys(cacheKey, query) {
      let keys = results.get(cacheKey);
      if (keys === undefined) {
        if (results.size >= MAX_CACHED_RESULTS) results.clear();
        results.set(cacheKey, (keys = query()));
      }
      return keys;
    },
    cachedCount(filter, count) {
      const cacheKey = JSON.stringify(filter);
      let total = counts.get(cacheKey);
      if (total === undefined) {
        if (counts.size >= MAX_CACHED_COUNTS) counts.clear();
        counts.set(cacheKey, (total = count()));
      }
      return total;
    },
    removeIndex(indexName) {
      const position = definitions.findIndex((spec) => spec.name === indexName);
      if (position < 0) return;
      const [removed] = definitions.splice(position, 1);
      const unique = uniques.findIndex((index) => index.spec === removed);
      if (unique >= 0) uniques.splice(unique, 1);
    },
  };
}
