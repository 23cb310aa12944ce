import { spendBytes } from '../byte-allowance';
import { createMatcher } from '../create-matcher';
import type { NormalizedFindOptions } from '../find-options';
import { setField } from '../clone-document';
import type { Filter, StoredDocument, StoredValue } from '../types';
import type { DocumentRow } from './document-column';
import { sortEntries } from './sort-documents';

/**
 * A small collection's rows held in memory as of one commit, answering its reads with the in-memory matcher
 * and sort (the semantics the SQL conditions are checked against, as the remembered totals are moved by). The
 * related rows of a list page (its categories, tags, authors) come from collections of tens of rows read again
 * by every request: each read was a statement on a reader thread, its message and its parse, about a quarter
 * of the main thread's time for a list with relations.
 */

export interface HeldRow {
  k: number;
  /** parsed once, for the matcher and the sort; never handed out: each answer gets its own copy, which its caller may change */
  doc: StoredDocument;
  /** its JSON's length: what SQL would have handed over, counted against an allowance */
  bytes: number;
}

/**
 * A deep copy of a parsed document: a tag's took 0.2 µs where parsing its JSON again took 0.9 (1,000,000 of
 * each; the parse was 2.5 % of the main thread's profile under the list with relations), and the rows are not
 * held twice, as text and parsed. `__proto__` stays a field, as JSON.parse keeps it.
 */
function copyOf(value: StoredValue): StoredValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyOf);
  const copy: StoredDocument = {};
  for (const key of Object.keys(value)) setField(copy, key, copyOf(value[key]));
  return copy;
}

export interface HeldRows {
  /** the rows as of commit `lastCommit`, when they are held */
  at(lastCommit: number): readonly HeldRow[] | undefined;
  /**
   * counts a read answered from SQL at commit `lastCommit`: whether to read the rows to hold them now. Once per
   * commit: the reads arriving while they are read go to SQL, and a collection found too large is not read
   * again before its next commit.
   */
  due(lastCommit: number, afterReads: number): boolean;
  hold(lastCommit: number, rows: HeldRow[]): void;
  /** forgets them (the catalog read again: another process committed, or a rollback) */
  clear(): void;
}

export function createHeldRows(): HeldRows {
  let held: { lastCommit: number; rows: HeldRow[] } | undefined;
  // reads answered from SQL since commit `countedAt`, and the last commit whose rows were read to be held
  let reads = 0;
  let countedAt = -1;
  let triedAt = -1;
  return {
    at: (lastCommit) => (held?.lastCommit === lastCommit ? held.rows : undefined),
    due(lastCommit, afterReads) {
      if (triedAt === lastCommit) return false;
      if (countedAt !== lastCommit) {
        countedAt = lastCommit;
        reads = 0;
      }
      if (++reads <= afterReads) return false;
      triedAt = lastCommit;
      return true;
    },
    hold(lastCommit, rows) {
      held = { lastCommit, rows };
    },
    clear() {
      held = undefined;
      countedAt = triedAt = -1;
    },
  };
}

/**
 * The order held rows (in key order) are answered in: the keys' or their reverse when the sort leads with a field
 * ascending with them (read-rows' keyOrder: nothing to sort, as for every relation read, sorted by `id`), else
 * the sort's, ties in key order or its reverse (the order SQL gives them, read-rows' orderTerms).
 */
export type HeldOrder = { byKey: 1 | -1 } | { ties: 1 | -1 };

/** `find`'s rows answered from held rows: the matches in `order`, paged, counted against the allowance as SQL's text would be, each a copy. */
export function answerFromHeld(rows: readonly HeldRow[], filter: Filter, options: NormalizedFindOptions, order: HeldOrder): DocumentRow[] {
  const matches = createMatcher(filter);
  let found = rows.filter((row) => matches(row.doc));
  if ('ties' in order) {
    const byKey = new Map(found.map((row) => [row.k, row]));
    found = sortEntries(found.map((row): [number, StoredDocument] => [row.k, row.doc]), options.sort, order.ties).map((key) => byKey.get(key)!);
  } else if (order.byKey === -1) found.reverse();
  const page = found.slice(options.skip, options.limit === undefined ? undefined : options.skip + options.limit);
  if (options.allowance) spendBytes(options.allowance, page.reduce((bytes, row) => bytes + row.bytes, 0));
  return page.map((row) => ({ k: row.k, doc: copyOf(row.doc) as StoredDocument }));
}
