import { badUserInput } from '../errors/graphql-errors';
import { PUBLICATION_FILTERS, publicationFilterEnumValue } from '../sdl/naming';

/**
 * `status`, `locale`, `publicationFilter` and `hasPublishedVersion` of the query string → the GraphQL arguments. Strapi 5.54 reads an
 * unknown status as "draft"; Folio refuses it. Whether a locale is configured is left to the
 * resolvers, which refuse unknown ones for REST and GraphQL alike.
 */

const queryError = (param: string, message: string) => badUserInput(message, { key: param, path: null, source: 'query', param });

export const parseStatus = (value: unknown): 'DRAFT' | 'PUBLISHED' | undefined => {
  if (value === undefined) return undefined;
  if (value === 'draft') return 'DRAFT';
  if (value === 'published') return 'PUBLISHED';
  throw queryError('status', `Invalid status ${JSON.stringify(value)}: expected draft or published`);
};

/**
 * Strapi v4's `publicationState`, honoured under `Strapi-Response-Format: v4` (Strapi 5 only
 * ignores it): `preview` reads drafts, as `status=draft` does, `live` the published versions.
 */
export const parsePublicationState = (value: unknown): 'DRAFT' | 'PUBLISHED' | undefined => {
  if (value === undefined) return undefined;
  if (value === 'preview') return 'DRAFT';
  if (value === 'live') return 'PUBLISHED';
  throw queryError('publicationState', `Invalid publicationState ${JSON.stringify(value)}: expected live or preview`);
};

export const parseLocale = (value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw queryError('locale', `Invalid locale ${JSON.stringify(value)}`);
  }
  return value;
};

/** `publicationFilter=never-published` → `NEVER_PUBLISHED`. */
export const parsePublicationFilter = (value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  const cohort = PUBLICATION_FILTERS.find((candidate) => candidate === value);
  if (!cohort) throw queryError('publicationFilter', `Invalid publicationFilter ${JSON.stringify(value)}: expected one of ${PUBLICATION_FILTERS.join(', ')}`);
  return publicationFilterEnumValue(cohort);
};

export const parseHasPublishedVersion = (value: unknown): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw queryError('hasPublishedVersion', `Invalid hasPublishedVersion ${JSON.stringify(value)}: expected true or false`);
};
