import type { SortSpec, StoredDocument } from '../storage/types';
import { compareValues } from '../storage/compare-values';

/** Rows that never reach the store (components inside their document, the configured locales) sorted as the store sorts. */
export const sortInMemory = <T extends StoredDocument>(rows: T[], sort: SortSpec): T[] =>
  sort.length === 0
    ? rows
    : [...rows].sort((a, b) => {
        for (const [key, direction] of sort) {
          const order = compareValues(a[key], b[key]) * direction;
          if (order !== 0) return order;
        }
        return 0;
      });
