import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import { strictMembers } from '../../common/strict-members';
import { ForbiddenError, httpError, NotFoundError, UnauthorizedError, ValidationError, type ErrorDetails, type HttpError } from '../../project/strapi-errors';

/**
 * The part of Koa's `ctx` (with Strapi's additions) that project policies and middlewares get:
 * `query`, `params`, `request.body`, `state`, `status`, `body`, `set`, `throw`, and a few
 * read-only facts of the request. Any other member throws naming it, so code relying on more of
 * Koa fails loudly, never silently.
 */

/** Koa's `ctx.throw(status?, message?, properties?)`, its arguments in any order. */
const httpErrorOf = (args: unknown[]): HttpError => {
  const status = args.find((arg): arg is number => typeof arg === 'number') ?? 500;
  const valid = status >= 400 && status <= 599 ? status : 500;
  const message = args.find((arg): arg is string => typeof arg === 'string') ?? STATUS_CODES[valid] ?? 'Error';
  const properties = args.find((arg): arg is Record<string, unknown> => typeof arg === 'object' && arg !== null);
  const details = properties && typeof properties.details === 'object' && properties.details !== null ? (properties.details as ErrorDetails) : {};
  return httpError(valid, message, details);
};

export interface KoaContextInit {
  method: string;
  /** path and query string, as Koa's `ctx.url` */
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
  state: Record<string, unknown>;
}

export interface KoaContext {
  query: Record<string, unknown>;
  params: Record<string, string>;
  readonly request: { body: unknown };
  state: Record<string, unknown>;
  status: number;
  body: unknown;
  /** the status the code set, or none */
  readonly explicitStatus: number | undefined;
  /** the response headers `set` was given */
  readonly responseHeaders: Record<string, string>;
}

const CTX_MEMBERS = 'project code gets ctx.query, params, request.body, state, status, body, set, get, throw, badRequest, unauthorized, forbidden, notFound, method, url, path, headers';

export const createKoaContext = (init: KoaContextInit): KoaContext => {
  let query = init.query;
  let body: unknown;
  let status: number | undefined;
  const responseHeaders: Record<string, string> = {};
  const set = (field: string | Record<string, unknown>, value?: unknown) => {
    if (typeof field === 'object') for (const [name, each] of Object.entries(field)) responseHeaders[name.toLowerCase()] = String(each);
    else responseHeaders[field.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  };
  // `ctx.query` and `ctx.request.query` are one value, as in Koa
  const queryMember = {
    enumerable: true,
    get: () => query,
    set: (value: Record<string, unknown>) => {
      query = value;
    },
  };
  const request = strictMembers(
    'ctx.request',
    {
      body: init.body,
      method: init.method,
      url: init.url,
      path: init.path,
      headers: init.headers,
      header: init.headers,
    },
    'project code gets ctx.request.body, query, method, url, path, headers',
  );
  Object.defineProperty(request, 'query', queryMember);
  const context = {
    params: init.params,
    state: init.state,
    request,
    method: init.method,
    url: init.url,
    path: init.path,
    headers: init.headers,
    header: init.headers,
    // Koa's rules: a body without a status is a 200 (null: 204); no body and no status is a 404
    get status(): number {
      return status ?? (body === undefined ? 404 : body === null ? 204 : 200);
    },
    set status(value: number) {
      if (!Number.isInteger(value) || value < 100 || value > 599) throw new TypeError(`ctx.status: invalid status code ${String(value)}`);
      status = value;
    },
    get body(): unknown {
      return body;
    },
    set body(value: unknown) {
      body = value;
      // Koa's setter: no content is a 204, whatever status was set before
      if (value === null || value === undefined) {
        if (status !== 204 && status !== 205 && status !== 304) status = 204;
      }
    },
    get explicitStatus() {
      return status;
    },
    responseHeaders,
    set,
    get: (field: string) => {
      const value = init.headers[field.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : (value ?? '');
    },
    throw: (...args: unknown[]): never => {
      throw httpErrorOf(args);
    },
    // Strapi's own shortcuts (its koa-methods): each throws the Strapi error of its status
    badRequest: (message?: string, details?: ErrorDetails): never => {
      throw new ValidationError(message, details);
    },
    unauthorized: (message?: string, details?: ErrorDetails): never => {
      throw new UnauthorizedError(message, details);
    },
    forbidden: (message?: string, details?: ErrorDetails): never => {
      throw new ForbiddenError(message, details);
    },
    notFound: (message?: string, details?: ErrorDetails): never => {
      throw new NotFoundError(message, details);
    },
  };
  Object.defineProperty(context, 'query', queryMember);
  return strictMembers('ctx', context as typeof context & { query: Record<string, unknown> }, CTX_MEMBERS);
};
