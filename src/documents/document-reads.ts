import type { ContentType } from '../models/types';
import type { ByteAllowance } from '../storage/byte-allowance';
import type { AggregateQuery, Filter, FindOptions, Store } from '../storage/types';
import { scopeFilter, type Scope } from './scope';
import { cohortFilter } from './publication-cohort';

/** Reads of documents in a scope (status, locale, publication cohort), with stable pages. */

export interface ListQuery {
  filter?: Filter;
  sort?: FindOptions['sort'];
  skip?: number;
  limit?: number;
  /** what the documents read count against (documents/read-budget) */
  allowance?: ByteAllowance;
}

/**
 * Pages must be stable on every engine: ties break on the numeric id (MongoDB leaves their order open), in
 * the direction of the last sort key, so that one index `[…, field, id]` serves a sort either way (a deep
 * page of `views:desc` read 4 times faster than with ties ascending, which SQLite sorted apart).
 */
export const withTiebreak = (sort: ListQuery['sort'] = []): NonNullable<ListQuery['sort']> =>
  sort.some(([field]) => field === 'id') ? sort : [...sort, ['id', sort.length > 0 ? sort[sort.length - 1][1] : 1]];

/** `parts` joined by `$and`, leaving out the empty ones. */
export const allOf = (parts: Array<Filter | undefined>): Filter => {
  const present = parts.filter((part): part is Filter => part !== undefined && Object.keys(part).length > 0);
  return present.length === 1 ? present[0] : { $and: present };
};

export const createDocumentReads = (store: Store) => {
  const collectionOf = (contentType: ContentType) => store.collection(contentType.collectionName);

  /** The rows of `scope` that match `filter`. */
  const scoped = async (contentType: ContentType, scope: Scope, filter?: Filter): Promise<Filter> =>
    allOf([scopeFilter(contentType, scope), await cohortFilter(collectionOf(contentType), contentType, scope), filter]);

  const findOptions = (query: ListQuery): FindOptions => ({ sort: withTiebreak(query.sort), skip: query.skip, limit: query.limit, allowance: query.allowance });

  return {
    findMany: async (contentType: ContentType, scope: Scope, query: ListQuery = {}) =>
      collectionOf(contentType).find(await scoped(contentType, scope, query.filter), findOptions(query)),
    /** A page and the total of its filter, from one search where the store can. */
    findPage: async (contentType: ContentType, scope: Scope, query: ListQuery = {}) =>
      collectionOf(contentType).findPage(await scoped(contentType, scope, query.filter), findOptions(query)),
    count: async (contentType: ContentType, scope: Scope, filter?: Filter) => collectionOf(contentType).countDocuments(await scoped(contentType, scope, filter)),
    /** The groups of the scope's matches and their accumulators, computed by the store. */
    aggregate: async (contentType: ContentType, scope: Scope, filter: Filter | undefined, query: AggregateQuery) =>
      collectionOf(contentType).aggregate(await scoped(contentType, scope, filter), query),
    findOne: async (contentType: ContentType, documentId: string, scope: Scope) => collectionOf(contentType).findOne(await scoped(contentType, scope, { documentId })),
    findFirst: async (contentType: ContentType, scope: Scope) => collectionOf(contentType).findOne(await scoped(contentType, scope), { sort: [['id', 1]] }),
    /** A single type holds at most one document, in any status and locale: its documentId, if it has one. */
    singleDocumentId: async (contentType: ContentType): Promise<string | undefined> => {
      const existing = await collectionOf(contentType).findOne({}, { sort: [['id', 1]], projection: ['documentId'] });
      return existing ? (existing.documentId as string) : undefined;
    },
  };
};
