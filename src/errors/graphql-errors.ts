import { createGraphQLError } from '@graphql-tools/utils';
import type { GraphQLError, ValueNode } from 'graphql';

/**
 * Every error Folio raises is made here, with a stable `extensions.code` and Strapi's
 * `extensions.error { name, message, details }`. The REST layer maps the same errors to its envelope.
 */

export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'BAD_REQUEST'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'FORBIDDEN'
  | 'UNAUTHENTICATED'
  | 'LIMIT_EXCEEDED'
  | 'PAYLOAD_TOO_LARGE'
  | 'RESPONSE_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'SERVICE_UNAVAILABLE';
export type StrapiErrorName =
  | 'ValidationError'
  | 'ApplicationError'
  | 'PaginationError'
  | 'NotFoundError'
  | 'ForbiddenError'
  | 'UnauthorizedError'
  | 'RateLimitError'
  | 'PayloadTooLargeError'
  | 'ServiceUnavailableError'
  // what only HTTP has: a malformed request, a JSON body that does not parse, a method a route lacks
  | 'BadRequestError'
  | 'SyntaxError'
  | 'MethodNotAllowedError'
  | 'ResponseTooLargeError'
  | 'RangeNotSatisfiableError';

export interface ValidationIssue {
  path: string[];
  message: string;
  name: 'ValidationError';
  value?: unknown;
}

export type ErrorDetails = Record<string, unknown>;

const HTTP_STATUS: Record<StrapiErrorName, number> = {
  ValidationError: 400,
  ApplicationError: 400,
  PaginationError: 400,
  NotFoundError: 404,
  ForbiddenError: 403,
  UnauthorizedError: 401,
  RateLimitError: 429,
  PayloadTooLargeError: 413,
  ServiceUnavailableError: 503,
  BadRequestError: 400,
  SyntaxError: 400,
  MethodNotAllowedError: 405,
  ResponseTooLargeError: 400,
  RangeNotSatisfiableError: 416,
};

export const httpStatusOf = (name: StrapiErrorName): number => HTTP_STATUS[name];

/** `http` is read by graphql-yoga for the response status and headers, and never shown to clients. */
interface HttpExtension {
  status: number;
  headers?: Record<string, string>;
}

const folioError = (code: ErrorCode, name: StrapiErrorName, message: string, details: ErrorDetails = {}, http?: HttpExtension, path?: readonly string[]): GraphQLError =>
  createGraphQLError(message, { extensions: { code, error: { name, message, details }, ...(http ? { http } : {}) }, path });

export const badUserInput = (message: string, details: ErrorDetails = {}): GraphQLError =>
  folioError('BAD_USER_INPUT', 'ValidationError', message, details);

export const validationErrors = (issues: ValidationIssue[]): GraphQLError =>
  badUserInput(issues.length === 1 ? issues[0].message : `${issues.length} errors occurred`, { errors: issues });

export const applicationError = (message: string, details: ErrorDetails = {}): GraphQLError =>
  folioError('BAD_USER_INPUT', 'ApplicationError', message, details);

/**
 * A service Folio needs does not answer (by default the database; the mail server): a 503 the client may retry
 * after `retryAfterSeconds`, without the driver's words. `null`: one not set up, which retrying will not mend.
 */
export const serviceUnavailable = (message = 'The database is not reachable: try again shortly', retryAfterSeconds: number | null = 5): GraphQLError =>
  folioError('SERVICE_UNAVAILABLE', 'ServiceUnavailableError', message, {}, { status: 503, ...(retryAfterSeconds === null ? {} : { headers: { 'retry-after': String(retryAfterSeconds) } }) });

/** The answer to a request that asked for more than `maxResponseBytes`, said the same on both surfaces. */
export const responseTooLargeMessage = (bytes: number, limit: number) =>
  `The answer would be ${bytes} bytes, more than the ${limit} allowed (graphql.config.maxResponseBytes): ask for smaller pages or fewer fields`;

export const responseTooLargeError = (bytes: number, limit: number): GraphQLError =>
  folioError('RESPONSE_TOO_LARGE', 'ResponseTooLargeError', responseTooLargeMessage(bytes, limit), { bytes, maxResponseBytes: limit });

/** An HTTP request no route can read (no Host, a target that is not a path). */
export const badRequestError = (message: string): GraphQLError => folioError('BAD_REQUEST', 'BadRequestError', message);

/** A JSON body that does not parse, named as Strapi names it. */
export const malformedJsonError = (message: string): GraphQLError => folioError('BAD_REQUEST', 'SyntaxError', message);

export const methodNotAllowedError = (): GraphQLError => folioError('METHOD_NOT_ALLOWED', 'MethodNotAllowedError', 'Method Not Allowed');

/** A `Range` none of whose bytes the file has (`size` bytes). */
export const rangeNotSatisfiableError = (size: number): GraphQLError =>
  folioError('BAD_REQUEST', 'RangeNotSatisfiableError', 'Range Not Satisfiable', { size });

export const paginationError = (message: string): GraphQLError => folioError('BAD_USER_INPUT', 'PaginationError', message);

export const notFoundError = (message = 'Not Found', details: ErrorDetails = {}): GraphQLError =>
  folioError('NOT_FOUND', 'NotFoundError', message, details);

/** `path`: for an error raised outside execution, the root field it stands for */
export const forbiddenError = (message = 'Forbidden access', details: ErrorDetails = {}, path?: readonly string[]): GraphQLError =>
  folioError('FORBIDDEN', 'ForbiddenError', message, details, undefined, path);

export const payloadTooLargeError = (message: string, details: ErrorDetails = {}): GraphQLError =>
  folioError('PAYLOAD_TOO_LARGE', 'PayloadTooLargeError', message, details);

/** A credential that opens nothing: 401 on both surfaces, GraphQL included. */
export const unauthorizedError = (message = 'Missing or invalid credentials'): GraphQLError =>
  folioError('UNAUTHENTICATED', 'UnauthorizedError', message, {}, { status: 401 });

/** 429 on both surfaces: a client told to slow down should not have to parse a 200. */
export const rateLimitError = (retryAfterSeconds: number): GraphQLError =>
  folioError('RATE_LIMITED', 'RateLimitError', 'Too many requests, please try again later.', {}, {
    status: 429,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

export const strapiErrorOf = (error: GraphQLError): { name: StrapiErrorName; message: string; details: ErrorDetails } | undefined =>
  (error.extensions?.error as { name: StrapiErrorName; message: string; details: ErrorDetails } | undefined) ?? undefined;

/** An operation nested deeper than `depthLimit`, worded as graphql-depth-limit words it (clients match on it). */
export const depthLimitError = (operationName: string, maxDepth: number): GraphQLError =>
  createGraphQLError(`'${operationName}' exceeds maximum operation depth of ${maxDepth}`, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } });

/** An operation that read more documents than `maxReadBytes` lets it hold: refused as an answer too large, since it is one in the making. */
export const readBudgetError = (bytes: number, limit: number): GraphQLError =>
  folioError(
    'RESPONSE_TOO_LARGE',
    'ResponseTooLargeError',
    `The request read more than the ${limit} bytes of documents allowed (graphql.config.maxReadBytes): ask for smaller pages, fewer aliases or fewer relations`,
    { bytes, maxReadBytes: limit },
  );

/*
 * What the GraphQL endpoint refuses before anything runs: codes as Apollo and graphql-yoga give them,
 * with `http.status` 400 where yoga would otherwise answer 200.
 */

/** A Float literal graphql-js would read as Infinity, refused as its variables path refuses one. */
export const nonFiniteFloatError = (node: ValueNode & { value: string }): GraphQLError =>
  createGraphQLError(`Float cannot represent non-finite value: ${node.value}`, { nodes: node, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });

/** A request error graphql-js leaves without a code (a variable that does not coerce), given `BAD_USER_INPUT`. */
export const withBadUserInputCode = (error: GraphQLError): GraphQLError =>
  error.extensions.code !== undefined
    ? error
    : createGraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions: { ...error.extensions, code: 'BAD_USER_INPUT' } });

/** A GraphQL request body or GET parameter that is not JSON. */
export const malformedRequestJsonError = (message: string): GraphQLError =>
  createGraphQLError(`Malformed JSON in the request: ${message}`, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });

export const inputTooDeepError = (maxDepth: number): GraphQLError =>
  createGraphQLError(`Input values nest deeper than ${maxDepth} levels`, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });

export const documentTooDeepError = (maxNesting: number): GraphQLError =>
  createGraphQLError(`Syntax Error: the document nests deeper than ${maxNesting} brackets`, { extensions: { code: 'GRAPHQL_PARSE_FAILED', http: { status: 400 } } });

/** An operation over `maxCost`: `message` says what was counted, `advice` what to ask for instead. */
export const costLimitError = (message: string, cost: number, maxCost: number, advice: string): GraphQLError =>
  createGraphQLError(`${message}: ${advice}`, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', cost, maxCost, http: { status: 400 } } });

/** A scalar value of the wrong shape: a GraphQLError, not a TypeError, so it is not masked. */
export const invalidScalarError = (message: string): GraphQLError => createGraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

/** A caller holding as many subscriptions as it may. */
export const tooManySubscriptionsError = (message: string): GraphQLError => createGraphQLError(message, { extensions: { code: 'LIMIT_EXCEEDED' } });

/** serviceUnavailable in place of `error` (its nodes and path), which held a driver's words. */
export const serviceUnavailableInPlaceOf = (error: GraphQLError): GraphQLError => {
  const unavailable = serviceUnavailable();
  return createGraphQLError(unavailable.message, { nodes: error.nodes, path: error.path, extensions: unavailable.extensions });
};

/** A selection set giving one response name to more fields than graphql-js can compare pairwise in good time. */
export const fieldRepeatError = (name: string, count: number, maxRepeats: number): GraphQLError =>
  createGraphQLError(`A selection set selects "${name}" ${count} times: at most ${maxRepeats} fields may share a name in one selection set`, {
    extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } },
  });
