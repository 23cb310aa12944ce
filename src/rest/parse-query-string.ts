import qs from 'qs';
import { badUserInput } from '../errors/graphql-errors';

/**
 * The one parser of REST query strings (content, users, files), parsing as Strapi parses it (`qs` with its options: a 25-element `$in`
 * stays an array, a bare `$null` is null). Keys naming `Object.prototype` members are refused
 * rather than left to qs, which would drop them silently (a dropped filter widens the result).
 */

export const QUERY_PARAMETERS = [
  'filters',
  'sort',
  'fields',
  'populate',
  'pagination',
  'status',
  'locale',
  '_q',
  'publicationFilter',
  'hasPublishedVersion',
  // Strapi v4's draft switch: honoured under `Strapi-Response-Format: v4`, ignored otherwise (rest-scope.ts)
  'publicationState',
] as const;
export type QueryParameter = (typeof QUERY_PARAMETERS)[number];
export type RestQuery = Partial<Record<QueryParameter, unknown>>;

/** What `/api/users` and `/api/upload/files` read: Strapi's entity-service parameters, `start`/`limit` of v4 included. */
export const LIST_QUERY_PARAMETERS = ['filters', 'sort', 'pagination', 'start', 'limit', 'fields', 'populate'] as const;
export type ListQueryParameter = (typeof LIST_QUERY_PARAMETERS)[number];

const QS_OPTIONS = { strictNullHandling: true, arrayLimit: 100, depth: 20 } as const;

const isPrototypeKey = (segment: string): boolean => segment === 'prototype' || segment in Object.prototype;

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

const refusePrototypeKeys = (search: string) => {
  for (const pair of search.split('&')) {
    const key = decode(pair.split('=', 1)[0]);
    const segments = key.split(/[[\]]+/).filter(Boolean);
    const found = segments.find(isPrototypeKey);
    if (found !== undefined) {
      throw badUserInput(`Invalid key ${found}`, { key: found, path: segments.slice(0, segments.indexOf(found)).join('.') || null, source: 'query' });
    }
  }
};

/** Every parameter of a query string, as Strapi's `ctx.query` holds it: what project middlewares see and change. */
export const parseQueryObject = (search: string): Record<string, unknown> => {
  const text = search.startsWith('?') ? search.slice(1) : search;
  if (text === '') return {};
  refusePrototypeKeys(text);
  return qs.parse(text, QS_OPTIONS) as Record<string, unknown>;
};

/**
 * A query object back to the query string a client would send for it (`qs`'s own form, as Strapi's
 * clients write it), so a query a middleware built in code (`populate: { seo: true }`, a page size as
 * a number) is read by the one parser, as if it had come over HTTP.
 */
export const stringifyQuery = (query: Record<string, unknown>): string => qs.stringify(query, { strictNullHandling: true });

/**
 * `allowed`: the parameters the route takes. Any other top-level key (a cache-buster, an analytics
 * tag, a framework's own parameter) is dropped, as Strapi drops it, or, with `strict`
 * (`api.rest.strictQuery`), a 400 naming it. Inside the parameters Folio stays strict either way.
 */
export const parseQueryString = <P extends string = QueryParameter>(search: string, allowed: ReadonlySet<P>, strict = false): Partial<Record<P, unknown>> => {
  const query: Partial<Record<P, unknown>> = {};
  for (const [key, value] of Object.entries(parseQueryObject(search))) {
    if (allowed.has(key as P)) query[key as P] = value;
    else if (strict) throw badUserInput(`Invalid key ${key}`, { key, path: null, source: 'query' });
  }
  return query;
};
