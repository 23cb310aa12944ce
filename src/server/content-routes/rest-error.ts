import { GraphQLError } from 'graphql';
import { INTERNAL_ERROR, knownErrorBodyOf, strapiErrorBodyOf, type ErrorBody } from '../error-envelope';

/**
 * REST's reading of failures for the shared envelope: parse errors are the same GraphQL errors the
 * resolvers raise, plus what yoga and sofa raise before execution, which Strapi answers as 400s.
 */

const NAME_BY_STATUS: Record<number, string> = {
  400: 'ValidationError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  413: 'PayloadTooLargeError',
  429: 'RateLimitError',
};

/** Codes of errors that stop a request before its resolvers run (validation, limits). */
const REJECTED_BEFORE_EXECUTION = new Set(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', 'BAD_USER_INPUT', 'LIMIT_EXCEEDED', 'BAD_REQUEST']);

const fromGraphqlError = (error: GraphQLError): ErrorBody => {
  const code = error.extensions?.code;
  // REST speaks Strapi's REST messages here, not GraphQL's ("Forbidden access").
  if (code === 'FORBIDDEN') return { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} };
  if (code === 'UNAUTHENTICATED') return { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} };
  const strapi = strapiErrorBodyOf(error);
  if (strapi) return strapi;
  if (typeof code === 'string' && REJECTED_BEFORE_EXECUTION.has(code)) return { status: 400, name: 'ValidationError', message: error.message, details: {} };
  // Protocol errors (sofa's "invalid JSON") carry the status yoga would answer with.
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, name: NAME_BY_STATUS[status] ?? 'ApplicationError', message: error.message, details: {} };
  return INTERNAL_ERROR;
};

const bodyOf = (error: unknown): ErrorBody => {
  // A resolver's error reaches us located (wrapped); the wrapper keeps its extensions.
  if (error instanceof GraphQLError) return fromGraphqlError(error);
  return knownErrorBodyOf(error) ?? INTERNAL_ERROR;
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
