import type { Filter, StoredDocument } from '../types';
import { createMatcher, type Matcher } from '../create-matcher';

/**
 * Totals by filter, kept exact across writes: a write tells the cache the document it replaced or removed
 * and the one it stored, and each remembered total moves by what its filter says of the two (the in-memory
 * matcher, the semantics the SQL conditions are checked against). A list page asks for the same total again
 * and again; recounting 200,000 index entries after every write took 15 ms on the main thread.
 *
 * Every write is numbered (the generation, which the database keeps too, in the same transaction) and the
 * last ones are kept: a total counted on a reader thread comes with the generation its snapshot saw, and the
 * writes after it are played onto it. Dropped instead, a count of a common word (60 ms at 200,000 articles)
 * was nearly never remembered under 20 writes a second.
 *
 * A total is moved when it is asked for, by the writes since it last was: most small totals are never asked
 * for again before they go. Moving all of them at every write cost 768 matcher runs per write, 4.4 ms of the
 * main thread at 200,000 articles (a text search under 20 writes a second spent a tenth of its time there).
 *
 * Totals are kept as of the last commit, which is what a read outside an open transaction sees (the reader
 * threads' snapshots); the transaction's own reads have its writes so far played on as well. Kept with them,
 * a count outside answered 3 while the page beside it, read on a reader thread, held 2 documents.
 */

/** totals remembered at most; the oldest goes first */
const MAX_TOTALS = 256;
/**
 * Totals this large cost a recount of as many rows (a search for a common word: 60 ms at 200,000 articles), and
 * they choose how a page is read (read-rows): the largest are kept apart, so that a stream of small
 * ones does not push them out.
 */
const LARGE_TOTAL = 2000;
const MAX_LARGE_TOTALS = 128;
/** writes kept to be played onto totals counted before them */
const MAX_LOGGED_WRITES = 1024;
/**
 * rows one operation may write and still move the totals; past it they are dropped instead: moving 256
 * totals costs up to 512 matcher runs per row, seconds of main thread for a few thousand rows
 */
const MAX_MOVED_ROWS = 16;

interface Total {
  n: number;
  matches: Matcher;
  /** the generation `n` counts up to */
  seen: number;
}

interface Write {
  before: StoredDocument | undefined;
  /** the stored document's JSON, parsed only when a total asks (a bulk insert with no total remembered parses nothing) */
  after: string | undefined;
  parsed?: StoredDocument;
}

export interface CountCache {
  /**
   * the total as of the last commit, moved by the writes since it was last asked for, and by the open
   * transaction's when `uncommitted` (a read inside it); none when some of those writes are no longer kept
   */
  get(key: string, uncommitted?: boolean): number | undefined;
  /**
   * `total` as counted at generation `seen`: the writes since are played onto it when asked for. Counted inside
   * the open transaction (`seen` past the last commit), its writes are taken out again.
   */
  remember(key: string, filter: Filter, total: number, seen: number): void;
  /** a document left the collection (`before`), entered it (`after`, its JSON), or both (a replacement): the next generation */
  written(before: StoredDocument | undefined, after: string | undefined): number;
  /** the number of the last write */
  readonly generation: number;
  /** the number of the last committed write: what a read outside the open transaction sees */
  readonly lastCommit: number;
  /** an operation is about to write `rows` rows: too many to move the totals by, they are forgotten */
  writing(rows: number): void;
  /**
   * whether an operation of the open transaction wrote too many rows to move the totals by: other workers
   * forget theirs too, so its writes are not logged for them (write-log)
   */
  readonly inBulk: boolean;
  /** forgets every total and write, the generation now `generation` (the database's, after a rollback) */
  reset(generation: number): void;
  /** the writes made so far are committed */
  committed(): void;
  /** a savepoint inside the open transaction was undone: the writes after `generation` are gone, the earlier ones stay */
  undo(generation: number): void;
}

const afterOf = (write: Write): StoredDocument | undefined =>
  write.after === undefined ? undefined : (write.parsed ??= JSON.parse(write.after) as StoredDocument);

/** what `write` changes in a total of `matches`: -1, 0 or 1 */
const change = (matches: Matcher, write: Write): number => {
  const after = afterOf(write);
  return (write.before && matches(write.before) ? -1 : 0) + (after && matches(after) ? 1 : 0);
};

export function createCountCache(generation = 0): CountCache {
  const small = new Map<string, Total>();
  const large = new Map<string, Total>();
  const pools = [small, large];
  // the last writes, oldest first: their generations run without a gap up to `generation`
  const writes: Write[] = [];
  const clear = (): void => pools.forEach((pool) => pool.clear());
  /** whether the writes after `seen` are all kept (and `seen` is not past the last, as after a rollback) */
  const replayable = (seen: number): boolean => seen <= generation && generation - seen <= writes.length;
  // the generation of the last commit: writes past it belong to the open transaction
  let committed = generation;
  let inBulk = false;
  /** what the writes after generation `from` up to `to` change in a total of `matches` */
  const delta = (matches: Matcher, from: number, to: number): number =>
    writes.slice(writes.length - (generation - from), writes.length - (generation - to)).reduce((sum, write) => sum + change(matches, write), 0);
  return {
    get(key, uncommitted = false) {
      const total = small.get(key) ?? large.get(key);
      if (!total) return undefined;
      if (!replayable(total.seen)) {
        small.delete(key);
        large.delete(key);
        return undefined;
      }
      total.n += delta(total.matches, total.seen, committed);
      total.seen = committed;
      return uncommitted ? total.n + delta(total.matches, committed, generation) : total.n;
    },
    remember(key, filter, n, seen) {
      if (!replayable(seen) || !replayable(Math.min(seen, committed))) return;
      const matches = createMatcher(filter);
      const total = seen > committed ? { n: n - delta(matches, committed, seen), matches, seen: committed } : { n, matches, seen };
      const [pool, max] = total.n >= LARGE_TOTAL ? [large, MAX_LARGE_TOTALS] : [small, MAX_TOTALS];
      small.delete(key);
      large.delete(key);
      if (pool.size >= max) pool.delete(pool.keys().next().value as string);
      pool.set(key, total);
    },
    committed() {
      committed = generation;
      inBulk = false;
    },
    undo(to) {
      writes.length = Math.max(0, writes.length - (generation - to));
      generation = to;
    },
    written(before, after) {
      if (writes.length >= MAX_LOGGED_WRITES) writes.shift();
      writes.push({ before, after });
      return ++generation;
    },
    get generation() {
      return generation;
    },
    get lastCommit() {
      return committed;
    },
    writing(rows) {
      if (rows <= MAX_MOVED_ROWS) return;
      clear();
      inBulk = true;
    },
    get inBulk() {
      return inBulk;
    },
    reset(to) {
      inBulk = false;
      clear();
      writes.length = 0;
      generation = committed = to;
    },
  };
}
