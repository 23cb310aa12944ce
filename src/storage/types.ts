/**
 * The storage interface: the subset of the MongoDB collection API that Folio needs.
 * Filters are MongoDB query documents restricted to the operators in `FILTER_OPERATORS` (one of them,
 * `$asText`, Folio's own: see text-form.ts);
 * both engines (embedded and MongoDB) implement exactly these semantics.
 */

import type { ByteAllowance } from './byte-allowance';

export type StoredValue = string | number | boolean | null | StoredValue[] | { [key: string]: StoredValue };
export type StoredDocument = { [key: string]: StoredValue };

/** MongoDB query document (only the operators of FILTER_OPERATORS). */
export type Filter = { [key: string]: unknown };

export const FILTER_OPERATORS = [
  '$and',
  '$or',
  '$nor',
  '$not',
  '$eq',
  '$ne',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$nin',
  '$regex',
  '$options',
  '$exists',
  '$elemMatch',
  '$size',
  // Folio's own: a value's text form against a pattern (text-form.ts)
  '$asText',
] as const;

export type SortSpec = Array<[field: string, direction: 1 | -1]>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  /** top-level field names to return; all when absent */
  projection?: string[];
  /** the documents read count against it; past it the read is refused with AllowanceSpentError (byte-allowance) */
  allowance?: ByteAllowance;
}

export interface UpdateSpec {
  $set?: StoredDocument;
  $unset?: string[];
}

export interface IndexSpec {
  keys: SortSpec;
  /**
   * Refuse two documents with equal values in all `keys` (a missing field counts as null). Documents whose
   * leading key is null or missing are left out of the index, so they never collide: a unique attribute
   * `slug` can be indexed as `[slug, locale, status]` and stay optional.
   */
  unique?: boolean;
  /** @default MongoDB's `field_1_other_-1`, `field_text` for a text index */
  name?: string;
  /**
   * Also serve substring conditions (`$regex` literals: contains, starts with, ends with) on the single key
   * from an index: the embedded engine keeps a trigram index of the path; MongoDB scans, so it ignores it.
   */
  text?: boolean;
  /**
   * A text index only: top-level fields whose values split its entries (a content type's status and locale).
   * A search with an equality condition on each reads its own part of the index, not every match's row to
   * check them. MongoDB ignores it, as it ignores `text`.
   */
  partition?: string[];
}

/** What `Collection.aggregate` computes over each group: its documents' count, or one field's sum, mean, least or greatest value. */
export type AccumulatorOperator = 'count' | 'sum' | 'avg' | 'min' | 'max';

export interface Accumulator {
  operator: AccumulatorOperator;
  /** the (dotted) field read; count reads none */
  field?: string;
  /**
   * sum and avg only: the field holds integers as decimal text (big integers), summed exactly and answered as
   * such text. Otherwise sum and avg read numbers alone, every other value left out.
   */
  integerText?: boolean;
}

/**
 * One aggregation: the matches split into groups by the values of `groupBy` (a missing field and null are one
 * group, null; the fields hold scalars), each given its accumulators' values, null where no document of the
 * group has a value to read (min and max compare values of one type, as attributes hold). Without `groupBy`,
 * one group of every match, also of none.
 */
export interface AggregateQuery {
  groupBy?: string[];
  /** by the name each value is answered under */
  accumulators: Record<string, Accumulator>;
  /** the groups' order, by accumulator names and `groupBy` fields; ties in the order of their `groupBy` values */
  sort?: SortSpec;
  skip?: number;
  /** at most this many groups; none when absent */
  limit?: number;
}

export type AggregateValue = number | string | null;

export interface AggregateGroup {
  /** the group's value of each `groupBy` field, in their order */
  key: StoredValue[];
  values: Record<string, AggregateValue>;
}

export interface Collection {
  readonly name: string;
  find(filter: Filter, options?: FindOptions): Promise<StoredDocument[]>;
  findOne(filter: Filter, options?: FindOptions): Promise<StoredDocument | null>;
  countDocuments(filter: Filter): Promise<number>;
  /** `find` and `countDocuments` of one filter, from one search where the engine can */
  findPage(filter: Filter, options?: FindOptions): Promise<{ documents: StoredDocument[]; total: number }>;
  insertOne(document: StoredDocument): Promise<void>;
  insertMany(documents: StoredDocument[]): Promise<void>;
  /** returns the number of documents the filter matched, all of which now carry the update (MongoDB's matchedCount) */
  updateOne(filter: Filter, update: UpdateSpec): Promise<number>;
  updateMany(filter: Filter, update: UpdateSpec): Promise<number>;
  /** returns the number of documents deleted */
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  /** idempotent; throws when an index of the same name or keys but different options exists */
  createIndex(index: IndexSpec): Promise<void>;
  /** the indexes created with createIndex (names filled in), e.g. for an export to recreate them */
  listIndexes(): Promise<IndexSpec[]>;
  /** every match in natural order, `batchSize` documents at a time, for walking a collection of any size */
  findInBatches(filter: Filter, batchSize: number): AsyncIterable<StoredDocument[]>;
  /** the matches' groups and their accumulators, computed by the engine (never by reading the documents out) */
  aggregate(filter: Filter, query: AggregateQuery): Promise<AggregateGroup[]>;
}

export interface Store {
  readonly engine: 'embedded' | 'mongodb';
  collection(name: string): Collection;
  /** names of the collections that hold documents (counters live in one too: `folio_sequences`) */
  listCollections(): Promise<string[]>;
  /**
   * next value of a named, persistent counter starting at 1 (numeric ids); a value taken inside a transaction
   * that fails may be handed out again (embedded) or skipped (MongoDB), never twice to committed work
   */
  nextSequence(name: string): Promise<number>;
  /** runs `work` atomically where the engine can; correct (if not atomic) where it cannot */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** true when the store answers */
  ping(): Promise<boolean>;
  /**
   * Moves when this process finds that another one committed (the embedded store's workers of one
   * `folio start`, which see each other's commits at once): what a process keeps from the store is then read
   * again before it is used (the response cache, roles). Absent where other writers are not seen that way
   * (MongoDB: other instances' writes are followed through the content events, every 250 ms).
   */
  othersCommitted?(): number;
  close(): Promise<void>;
}

/** The database does not answer (down, unreachable, no primary): nothing was read or written; try again later. */
export class StoreUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the database is not reachable', options);
    this.name = 'StoreUnavailableError';
  }
}

/** Thrown by insert/update when a unique index would be violated. */
export class UniqueConstraintError extends Error {
  constructor(
    readonly collection: string,
    readonly fields: string[],
  ) {
    super(`unique constraint violated on ${collection} (${fields.join(', ')})`);
    this.name = 'UniqueConstraintError';
  }
}
