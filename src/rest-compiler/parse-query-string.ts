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
  // a list's aggregation (rest-aggregation.ts), Folio's addition
  'aggregate',
  'groupBy',
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

/** The parameters a route takes; any other top-level key is dropped or, with `strict`, a 400 naming it. */
const pickParameters = <P extends string>(parsed: Record<string, unknown>, allowed: ReadonlySet<P>, strict: boolean): Partial<Record<P, unknown>> => {
  const query: Partial<Record<P, unknown>> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (allowed.has(key as P)) query[key as P] = value;
    else if (strict) throw badUserInput(`Invalid key ${key}`, { key, path: null, source: 'query' });
  }
  return query;
};

/**
 * `allowed`: the parameters the route takes. Any other top-level key (a cache-buster, an analytics
 * tag, a framework's own parameter) is dropped, as Strapi drops it, or, with `strict`
 * (`api.rest.strictQuery`), a 400 naming it. Inside the parameters Folio stays strict either way.
 */
export const parseQueryString = <P extends string = QueryParameter>(search: string, allowed: ReadonlySet<P>, strict = false): Partial<Record<P, unknown>> =>
  pickParameters(parseQueryObject(search), allowed, strict);

/**
 * A query object built in code (a middleware's `ctx.query`, `strapi.documents(uid).findMany(params)`),
 * read as the one parser reads a client's query string: through `qs`'s own text form, so that
 * `populate: { seo: true }` and a page size given as a number come out as they would over HTTP. Lists
 * keep every item and an empty list stays one (HTTP's 100-item limit bounds what clients send; code's
 * lists, a `$in` of 150 ids, are the project's own).
 */
export const parseBuiltQuery = <P extends string = QueryParameter>(query: Record<string, unknown>, allowed: ReadonlySet<P>, strict = false): Partial<Record<P, unknown>> => {
  const text = qs.stringify(query, { strictNullHandling: true, allowEmptyArrays: true });
  refusePrototypeKeys(text);
  return pickParameters(qs.parse(text, { ...QS_OPTIONS, arrayLimit: Number.MAX_SAFE_INTEGER, allowEmptyArrays: true }) as Record<string, unknown>, allowed, strict);
};
