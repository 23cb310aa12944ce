import { GraphQLError } from 'graphql';
import { httpStatusOf, responseTooLargeMessage, serviceUnavailable, strapiErrorOf, type ErrorDetails } from '../errors/graphql-errors';
import { StoreUnavailableError } from '../storage/types';

/**
 * Strapi's error envelope `{ data: null, error: { status, name, message, details } }`, the answer of
 * every HTTP route that fails. The errors Folio raises are GraphQL errors carrying their Strapi name
 * (`extensions.error`), so one mapping serves every route; `HttpError` covers what only HTTP has
 * (404 of a route, 413, malformed JSON).
 */

export interface ErrorBody {
  status: number;
  name: string;
  message: string;
  /**
   * Always there, `{}` when there is nothing to say: clients read `error.details` without a check.
   * (Strapi 5.54 leaves it out of its malformed-JSON answer alone; Folio does not copy that gap.)
   */
  details: ErrorDetails;
}

export class HttpError extends Error {
  constructor(readonly body: ErrorBody) {
    super(body.message);
  }
}

export const notFound = () => new HttpError({ status: 404, name: 'NotFoundError', message: 'Not Found', details: {} });
export const payloadTooLarge = (limit: number) =>
  new HttpError({ status: 413, name: 'PayloadTooLargeError', message: `Request body is larger than ${limit} bytes`, details: {} });
export const responseTooLarge = (bytes: number, limit: number) =>
  new HttpError({
    status: 400,
    name: 'ResponseTooLargeError',
    message: responseTooLargeMessage(bytes, limit),
    details: { bytes, maxResponseBytes: limit },
  });
export const badRequest = (message: string) => new HttpError({ status: 400, name: 'BadRequestError', message, details: {} });
export const malformedJson = (message: string) => new HttpError({ status: 400, name: 'SyntaxError', message, details: {} });

export const INTERNAL_ERROR: ErrorBody = { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} };

/** The body of a Folio error, its status given by its Strapi name; undefined for an error Folio did not raise. */
export const strapiErrorBodyOf = (error: GraphQLError): ErrorBody | undefined => {
  const strapi = strapiErrorOf(error);
  return strapi && { status: httpStatusOf(strapi.name), name: strapi.name, message: strapi.message, details: strapi.details };
};

/** The body of an `HttpError`, a Folio error or an unreachable store; undefined for anything else (a bug, for the server's 500). */
export const knownErrorBodyOf = (error: unknown): ErrorBody | undefined => {
  if (error instanceof HttpError) return error.body;
  if (error instanceof StoreUnavailableError) return strapiErrorBodyOf(serviceUnavailable());
  return error instanceof GraphQLError ? strapiErrorBodyOf(error) : undefined;
};

export const errorEnvelope = (body: ErrorBody) => ({ data: null, error: body });
