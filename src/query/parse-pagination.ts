import { badUserInput, paginationError } from '../errors/graphql-errors';

/** `{ page, pageSize }` or `{ start, limit }` → skip/limit, with Strapi's defaults and clamping. */

export interface PaginationInput {
  page?: unknown;
  pageSize?: unknown;
  start?: unknown;
  limit?: unknown;
}

export interface PaginationLimits {
  defaultLimit: number;
  maxLimit: number;
}

export type Pagination =
  | { mode: 'page'; page: number; pageSize: number; skip: number; limit: number }
  | { mode: 'offset'; start: number; limit: number; skip: number };

const integer = (value: unknown, key: string): number | undefined => {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
    throw badUserInput(`pagination.${key} must be an integer`, { key, path: 'pagination', source: 'query', param: 'pagination' });
  }
  return number;
};

export const parsePagination = (input: PaginationInput | undefined | null, limits: PaginationLimits): Pagination => {
  const page = integer(input?.page, 'page');
  const pageSize = integer(input?.pageSize, 'pageSize');
  const start = integer(input?.start, 'start');
  const limit = integer(input?.limit, 'limit');
  const usesPage = page !== undefined || pageSize !== undefined;
  const usesOffset = start !== undefined || limit !== undefined;
  if (usesPage && usesOffset) throw paginationError('Cannot use both page & offset pagination in the same query');
  if (usesOffset) {
    const size = limit === undefined ? limits.defaultLimit : limit === -1 ? limits.maxLimit : Math.min(Math.max(limit, 1), limits.maxLimit);
    const offset = Math.max(start ?? 0, 0);
    return { mode: 'offset', start: offset, limit: size, skip: offset };
  }
  const size = Math.min(Math.max(pageSize ?? limits.defaultLimit, 1), limits.maxLimit);
  const current = Math.max(page ?? 1, 1);
  return { mode: 'page', page: current, pageSize: size, skip: (current - 1) * size, limit: size };
};
