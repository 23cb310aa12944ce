import type { SortSpec, StoredDocument, StoredValue } from '../types';
import { codePointOrderKey, compareValues, typeRank } from './compare-values';
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

/**
 * A new array in `sort` order; ties keep their input (insertion) order. Each document's keys are computed once
 * into flat arrays (type rank, and strings turned into code point order keys) so comparisons stay cheap.
 */
export function sortDocuments(documents: StoredDocument[], sort: SortSpec): StoredDocument[] {
  const width = sort.length;
  if (width === 0) return documents.slice();
  const ranks = new Int8Array(documents.length * width);
  const values: Array<StoredValue | undefined> = new Array(documents.length * width);
  documents.forEach((document, position) => {
    for (let i = 0; i < width; i++) {
      const value = sortValue(document, sort[i][0], sort[i][1]);
      const slot = position * width + i;
      if (value === EMPTY_ARRAY) ranks[slot] = EMPTY_ARRAY_RANK;
      else {
        ranks[slot] = typeRank(value);
        values[slot] = typeof value === 'string' ? codePointOrderKey(value) : value;
      }
    }
  });
  const directions = sort.map(([, direction]) => direction);
  const order = documents.map((_, position) => position);
  order.sort((left, right) => {
    for (let i = 0; i < width; i++) {
      const a = left * width + i;
      const b = right * width + i;
      let byKey = ranks[a] - ranks[b];
      if (byKey === 0) {
        const x = values[a];
        const y = values[b];
        if (typeof x === 'number') byKey = x - (y as number);
        else if (typeof x === 'string') byKey = x < (y as string) ? -1 : x === y ? 0 : 1;
        else byKey = compareValues(x, y);
      }
      if (byKey !== 0) return byKey * directions[i];
    }
    return left - right;
  });
  return order.map((position) => documents[position]);
}
