import type { GraphQLResolveInfo } from 'graphql';
import type { ContentType } from '../models/types';
import type { Filter, StoredDocument } from '../storage/types';
import { parsePagination } from '../query/parse-pagination';
import { parseSortPaths } from '../query/parse-sort';
import type { Scope } from '../documents/scope';
import type { FolioContext } from '../context';
import { withScope } from './row-scope';
import { findSortedThroughRelations } from './relation-sort';
import { prefetchConnectionRelations } from './prefetch-relations';
import { selectsSubField } from './selected-fields';

/**
 * A page of a list, and a connection (`articles_connection`, a group's `connection`): its nodes, its pageInfo
 * and what its aggregates are computed over (the scope and store filter, pagination ignored).
 */

type Args = Record<string, unknown>;

/** What a connection's documents are: its `aggregate` and `groupBy` read it. */
export interface ConnectionSource {
  contentType: ContentType;
  scope: Scope;
  filter: Filter;
  /** the aggregate values, when they were computed with the group this connection is (aggregate-resolvers) */
  aggregate?: Record<string, unknown>;
}

export interface Connection {
  nodes: StoredDocument[];
  pageInfo: () => Promise<{ page: number; pageSize: number; pageCount: number; total: number }>;
  source: ConnectionSource;
}

/** `withTotal`: the total is wanted too, and read with the page where the store can (one search for both) */
export const readPage = async (context: FolioContext, contentType: ContentType, scope: Scope, filter: Filter, args: Args, withTotal: boolean) => {
  const page = parsePagination(args.pagination as Args | undefined, context.pageLimits);
  const keys = parseSortPaths(context.services.models, contentType, args.sort);
  const scoped = (rows: StoredDocument[]) => rows.map((row) => withScope(context, row, scope));
  if (keys.some((key) => key.path.length > 1)) {
    const rows = await findSortedThroughRelations(context, contentType, scope, filter, keys, page);
    return { rows: scoped(rows), page, total: undefined };
  }
  const query = { filter, sort: keys.map(({ path, direction }): [string, 1 | -1] => [path[0], direction]), skip: page.skip, limit: page.limit };
  const { documents: rows, total } = withTotal
    ? await context.services.documents.findPage(contentType, scope, query)
    : { documents: await context.services.documents.findMany(contentType, scope, query), total: undefined };
  return { rows: scoped(rows), page, total };
};

/** No document read, and the same refusals of a bad page or sort as a read. */
const unreadPage = (context: FolioContext, contentType: ContentType, args: Args) => {
  parseSortPaths(context.services.models, contentType, args.sort);
  return { rows: [], page: parsePagination(args.pagination as Args | undefined, context.pageLimits), total: undefined };
};

/**
 * A connection over `filter` in `scope`. Its nodes are read only when selected: a connection asked for its
 * aggregates alone (REST's aggregation, a group's count) reads no document.
 */
export const readConnection = async (
  context: FolioContext,
  source: ConnectionSource,
  args: Args,
  info: GraphQLResolveInfo,
): Promise<Connection> => {
  const { contentType, scope, filter } = source;
  const wantsNodes = selectsSubField(info, 'nodes');
  const wantsTotal = selectsSubField(info, 'pageInfo');
  const { rows, page, total: found } = wantsNodes ? await readPage(context, contentType, scope, filter, args, wantsTotal) : unreadPage(context, contentType, args);
  if (wantsNodes) await prefetchConnectionRelations(context, contentType, rows, info);
  return {
    nodes: rows,
    // Counting costs a query: only done when pageInfo is selected.
    pageInfo: async () => {
      const total = found ?? (await context.services.documents.count(contentType, scope, filter));
      const pageSize = page.limit;
      return {
        page: page.mode === 'page' ? page.page : Math.floor(page.skip / pageSize) + 1,
        pageSize,
        pageCount: Math.ceil(total / pageSize),
        total,
      };
    },
    source,
  };
};
