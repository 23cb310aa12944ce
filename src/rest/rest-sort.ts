import type { Attribute } from '../models/types';
import { badUserInput } from '../errors/graphql-errors';
import { parseSort } from '../query/parse-sort';

/**
 * Strapi's sort forms (`title:desc`, `sort[0]=…`, `kind,views:desc`, `{ title: 'desc' }`,
 * `[{ title: 'desc' }]`) → the `["title:desc"]` list the GraphQL `sort` argument takes,
 * checked here so a bad key is reported as a query error before anything runs.
 */

const entriesOf = (value: unknown, param: string): string[] => {
  if (typeof value === 'string') return value.split(',').map((part) => part.trim()).filter(Boolean);
  if (Array.isArray(value)) return value.flatMap((item) => entriesOf(item, param));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).map(([field, direction]) => {
      if (typeof direction !== 'string') throw badUserInput(`Invalid sort direction for ${field}`, { key: field, path: null, source: 'query', param });
      return `${field}:${direction}`;
    });
  }
  throw badUserInput('Invalid sort: expected field names', { key: param, path: null, source: 'query', param });
};

export const parseRestSort = (attributes: Record<string, Attribute>, value: unknown, param = 'sort'): string[] | undefined => {
  if (value === undefined || value === null) return undefined;
  const entries = entriesOf(value, param);
  parseSort(attributes, entries, param);
  return entries;
};
