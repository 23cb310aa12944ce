import { GraphQLError } from 'graphql';
import { httpStatusOf, strapiErrorOf, type ErrorDetails } from '../errors/graphql-errors';

/**
 * REST answers every failure with Strapi's envelope `{ data: null, error: { status, name,
 * message, details } }`. Errors raised while parsing a request are the same GraphQL errors
 * the resolvers raise (`extensions.error`), so one mapping serves both; `RestError` covers what
 * only HTTP has (405, 413, malformed JSON).
 */

export interface ErrorBody {
  status: number;
  name: string;
  message: string;
  /** absent only for malformed JSON, as Strapi answers it */
  details?: ErrorDetails;
}

export class RestError extends Error {
  constructor(readonly body: ErrorBody) {
    super(body.message);
  }
}

export const methodNotAllowed = () => new RestError({ status: 405, name: 'MethodNotAllowedError', message: 'Method Not Allowed', details: {} });
export const notFound = () => new RestError({ status: 404, name: 'NotFoundError', message: 'Not Found', details: {} });
export const payloadTooLarge = (limit: number) =>
  new RestError({ status: 413, name: 'PayloadTooLargeError', message: `Request body is larger than ${limit} bytes`, details: {} });
export const malformedJson = (message: string) => new RestError({ status: 400, name: 'SyntaxError', message });
export const validationError = (message: string, details: ErrorDetails = {}) =>
  new RestError({ status: 400, name: 'ValidationError', message, details });

const NAME_BY_STATUS: Record<number, string> = {
  400: 'ValidationError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  413: 'PayloadTooLargeError',
  429: 'RateLimitError',
};

const INTERNAL: ErrorBody = { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} };

/** Codes of errors that stop a request before its resolvers run (validation, limits). */
const REJECTED_BEFORE_EXECUTION = new Set(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', 'BAD_USER_INPUT', 'LIMIT_EXCEEDED', 'BAD_REQUEST']);

const fromGraphqlError = (error: GraphQLError): ErrorBody => {
  const code = error.extensions?.code;
  // REST speaks Strapi's REST messages here, not GraphQL's ("Forbidden access").
  if (code === 'FORBIDDEN') return { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} };
  if (code === 'UNAUTHENTICATED') return { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} };
  const strapi = strapiErrorOf(error);
  if (strapi) return { status: httpStatusOf(strapi.name), name: strapi.name, message: strapi.message, details: strapi.details };
  if (typeof code === 'string' && REJECTED_BEFORE_EXECUTION.has(code)) return { status: 400, name: 'ValidationError', message: error.message, details: {} };
  // Variable coercion failures carry no code: the compiled operation is valid, so the values were not.
  if (error.message.startsWith('Variable "$')) return { status: 400, name: 'ValidationError', message: error.message, details: {} };
  // Protocol errors (sofa's "invalid JSON") carry the status yoga would answer with.
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, name: NAME_BY_STATUS[status] ?? 'ApplicationError', message: error.message, details: {} };
  return INTERNAL;
};

const bodyOf = (error: unknown): ErrorBody => {
  if (error instanceof RestError) return error.body;
  // A resolver's error reaches us located (wrapped); the wrapper keeps its extensions.
  if (error instanceof GraphQLError) return fromGraphqlError(error);
  return INTERNAL;
};

/** The envelope's error for anything thrown or returned; what maps to 500 is a bug, logged. */
export const errorBodyOf = (error: unknown): ErrorBody => {
  const body = bodyOf(error);
  if (body.status === 500) {
    const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
    process.stderr.write(`REST: ${original instanceof Error ? (original.stack ?? original.message) : String(original)}\n`);
  }
  return body;
};

export const errorEnvelope = (body: ErrorBody) => ({ data: null, error: body });
