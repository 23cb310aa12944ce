import { badUserInput } from '../errors/graphql-errors';
import { parsePagination, type Pagination, type PaginationLimits } from '../query/parse-pagination';

/**
 * REST pagination with the REST limits (`rest.defaultLimit`, `rest.maxLimit`), clamped here so
 * the resolver receives values already within them. As on Strapi 5.54: a size below 1 becomes 1
 * (`limit=-1` included, which GraphQL reads as "the maximum"), a page below 1 becomes 1.
 */

export interface RestPagination {
  /** the GraphQL `pagination` argument */
  argument: { page: number; pageSize: number } | { start: number; limit: number };
  withCount: boolean;
  meta(total: number | undefined): Record<string, number>;
}

const KEYS = new Set(['page', 'pageSize', 'start', 'limit', 'withCount']);

const parseWithCount = (value: unknown): boolean => {
  if (value === undefined || value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw badUserInput('pagination.withCount must be true or false', { key: 'withCount', path: 'pagination', source: 'query', param: 'pagination' });
};

const metaOf = (page: Pagination, withCount: boolean) => (total: number | undefined): Record<string, number> => {
  const counted = withCount && total !== undefined;
  if (page.mode === 'offset') return counted ? { start: page.start, limit: page.limit, total } : { start: page.start, limit: page.limit };
  return counted
    ? { page: page.page, pageSize: page.pageSize, pageCount: Math.ceil(total / page.pageSize), total }
    : { page: page.page, pageSize: page.pageSize };
};

/**
 * `v4`: a Strapi v4 client (`Strapi-Response-Format: v4`), whose `limit=-1` meant "all": it gets the
 * largest page, as GraphQL reads -1. Strapi 5 clients get Strapi 5.54's answer, one row.
 */
export const parseRestPagination = (input: unknown, limits: PaginationLimits, v4 = false): RestPagination => {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw badUserInput('Invalid pagination: expected page, pageSize, start, limit or withCount', { key: 'pagination', path: null, source: 'query', param: 'pagination' });
  }
  const values = (input ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(values).find((key) => !KEYS.has(key));
  if (unknown !== undefined) throw badUserInput(`Invalid key ${unknown}`, { key: unknown, path: 'pagination', source: 'query', param: 'pagination' });
  const page = parsePagination(values, limits);
  // parsePagination reads limit -1 as "the maximum" (GraphQL's rule); REST 5 clamps it to 1 like any size below 1.
  const belowOne = page.mode === 'offset' && values.limit !== undefined && Number(values.limit) < 1 && !(v4 && Number(values.limit) === -1);
  const clamped: Pagination = belowOne ? { ...page, limit: 1 } : page;
  const withCount = parseWithCount(values.withCount);
  return {
    argument: clamped.mode === 'page' ? { page: clamped.page, pageSize: clamped.pageSize } : { start: clamped.start, limit: clamped.limit },
    withCount,
    meta: metaOf(clamped, withCount),
  };
};
