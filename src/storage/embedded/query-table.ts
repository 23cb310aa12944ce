import type { NormalizedFindOptions } from '../find-options';
import type { Filter, StoredDocument } from '../types';
import type { CollectionTable } from './collection-table';
import { createMatcher } from './create-matcher';
import { sortEntries } from './sort-documents';


/**
 * The stored (shared, never to be mutated) documents a find returns, in order. The scan runs in natural order,
 * or over the table's cached sorted view, and stops as soon as the page is full.
 */
export function queryTable(table: CollectionTable, filter: Filter, options: NormalizedFindOptions): StoredDocument[] {
  const matches = createMatcher(filter);
  const { sort, skip, limit } = options;
  const end = limit === undefined ? Infinity : skip + limit;
  const matched: StoredDocument[] = [];
  const consider = (document: StoredDocument): boolean => {
    if (matches(document)) matched.push(document);
    return matched.length < end;
  };
  const candidates = table.candidates(filter);
  if (candidates) {
    const entries = candidates.map((key): [number, StoredDocument] => [key, table.documents.get(key)!]);
    const ordered = sort.length === 0 ? candidates : sortEntries(entries, sort);
    for (const key of ordered) if (!consider(table.documents.get(key)!)) break;
  } else if (sort.length === 0) {
    for (const document of table.documents.values()) if (!consider(document)) break;
  } else {
    for (const key of table.sortedView(sort)) if (!consider(table.documents.get(key)!)) break;
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
