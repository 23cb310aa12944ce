import { badUserInput } from '../errors/graphql-errors';

/**
 * Strapi's sort forms (`title:desc`, `sort[0]=…`, `kind,views:desc`, `{ title: 'desc' }`,
 * `[{ title: 'desc' }]`) → the `["title:desc"]` list the GraphQL `sort` argument takes. Only the
 * form is read here: the keys are checked once, by the resolvers' sort parser, whose errors name
 * the `param` REST's query used.
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

export const parseRestSort = (value: unknown, param = 'sort'): string[] | undefined =>
  value === undefined || value === null ? undefined : entriesOf(value, param);
