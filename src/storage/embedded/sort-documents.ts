import type { SortSpec, StoredDocument, StoredValue } from '../types';
import { codePointOrderKey, compareValues, typeRank } from '../compare-values';
import { collectPathValues } from './document-path';

// MongoDB sorts an empty array before null and missing values (rank 1)
const EMPTY_ARRAY = Symbol('empty array');
const EMPTY_ARRAY_RANK = 0;

/** An array field sorts by its smallest element ascending and its largest descending, as in MongoDB. */
function sortValue(document: StoredDocument, path: string, direction: 1 | -1): StoredValue | undefined | typeof EMPTY_ARRAY {
  if (!path.includes('.')) {
    const value = document[path];
    if (!Array.isArray(value)) return value;
  }
  const reached = collectPathValues(document, path);
  if (reached.length === 0) return undefined;
  const candidates = reached.flatMap((value) => (Array.isArray(value) ? value : [value]));
  if (candidates.length === 0) return EMPTY_ARRAY;
  let best: StoredValue = candidates[0];
  for (let i = 1; i < candidates.length; i++) {
    if (compareValues(candidates[i], best) * direction < 0) best = candidates[i];
  }
  return best;
}

/** A document's sort keys: per field its type rank and value (strings as code point order keys). */
interface SortKeys {
  ranks: number[];
  values: Array<StoredValue | undefined>;
}

function sortKeysOf(document: StoredDocument, sort: SortSpec): SortKeys {
  const keys: SortKeys = { ranks: [], values: [] };
  for (const [path, direction] of sort) {
    const value = sortValue(document, path, direction);
    if (value === EMPTY_ARRAY) {
      keys.ranks.push(EMPTY_ARRAY_RANK);
      keys.values.push(undefined);
    } else {
      keys.ranks.push(typeRank(value));
      keys.values.push(typeof value === 'string' ? codePointOrderKey(value) : value);
    }
  }
  return keys;
}

function compareKeys(left: SortKeys, right: SortKeys, sort: SortSpec): number {
  for (let i = 0; i < sort.length; i++) {
    let order = left.ranks[i] - right.ranks[i];
    if (order === 0) {
      const x = left.values[i];
      const y = right.values[i];
      if (typeof x === 'number') order = x - (y as number);
      else if (typeof x === 'string') order = x < (y as string) ? -1 : x === y ? 0 : 1;
      else order = compareValues(x, y);
    }
    if (order !== 0) return order * sort[i][1];
  }
  return 0;
}

/** Internal keys of `entries` in `sort` order; ties in key (insertion) order, or its reverse (`ties` -1). */
export function sortEntries(entries: Iterable<[key: number, document: StoredDocument]>, sort: SortSpec, ties: 1 | -1 = 1): number[] {
  const decorated = Array.from(entries, ([key, document]) => ({ key, sortKeys: sortKeysOf(document, sort) }));
  decorated.sort((left, right) => compareKeys(left.sortKeys, right.sortKeys, sort) || (left.key - right.key) * ties);
  return decorated.map((entry) => entry.key);
}
