import type { NormalizedFindOptions } from '../find-options';
import type { Filter, StoredDocument } from '../types';
import type { CollectionTable } from './collection-table';
import { createMatcher } from './create-matcher';
import { sortEntries } from './sort-documents';


/**
 * The stored (shared, never to be mutated) documents a find returns, in order. The scan runs over the keys a
 * lookup leaves, or in natural order, or over the table's sorted view, and stops as soon as the page is full.
 * The page's keys are remembered until the next write to the collection.
 */
export function queryTable(table: CollectionTable, filter: Filter, options: NormalizedFindOptions): StoredDocument[] {
  const { sort, skip, limit } = options;
  const cacheKey = JSON.stringify([filter, sort, skip, limit ?? null]);
  return table.cachedKeys(cacheKey, () => pageKeys(table, filter, options)).map((key) => table.documents.get(key)!);
}

function pageKeys(table: CollectionTable, filter: Filter, options: NormalizedFindOptions): number[] {
  const matches = createMatcher(filter);
  const { sort, skip, limit } = options;
  const end = limit === undefined ? Infinity : skip + limit;
  const matched: number[] = [];
  const consider = (key: number): boolean => {
    if (matches(table.documents.get(key)!)) matched.push(key);
    return matched.length < end;
  };
  const candidates = table.candidates(filter);
  if (candidates) {
    const entries = candidates.map((key): [number, StoredDocument] => [key, table.documents.get(key)!]);
    const ordered = sort.length === 0 ? candidates : sortEntries(entries, sort);
    for (const key of ordered) if (!consider(key)) break;
  } else if (sort.length === 0) {
    for (const key of table.documents.keys()) if (!consider(key)) break;
  } else {
    for (const key of table.sortedView(sort)) if (!consider(key)) break;
  }
  return matched.slice(skip, end);
}

/** Internal keys of the documents `filter` matches, in natural order, at most `limit` of them. */
export function matchingKeys(table: CollectionTable, filter: Filter, limit = Infinity): number[] {
  const matches = createMatcher(filter);
  const keys: number[] = [];
  const candidates = table.candidates(filter) ?? table.documents.keys();
  for (const key of candidates) {
    if (keys.length >= limit) break;
    if (matches(table.documents.get(key)!)) keys.push(key);
  }
  return keys;
}
