import { badUserInput } from '../errors/graphql-errors';

/**
 * `status` and `locale` of the query string → the GraphQL arguments. Strapi 5.54 reads an
 * unknown status as "draft"; Folio refuses it. Whether a locale is configured is left to the
 * resolvers, which refuse unknown ones for REST and GraphQL alike.
 */

export const parseStatus = (value: unknown): 'DRAFT' | 'PUBLISHED' | undefined => {
  if (value === undefined) return undefined;
  if (value === 'draft') return 'DRAFT';
  if (value === 'published') return 'PUBLISHED';
  throw badUserInput(`Invalid status ${JSON.stringify(value)}: expected draft or published`, { key: 'status', path: null, source: 'query', param: 'status' });
};

export const parseLocale = (value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw badUserInput(`Invalid locale ${JSON.stringify(value)}`, { key: 'locale', path: null, source: 'query', param: 'locale' });
  }
  return value;
};
