import { GraphQLError } from 'graphql';
import { httpStatusOf, serviceUnavailable, strapiErrorOf, type ErrorDetails } from '../errors/graphql-errors';
import { StoreUnavailableError } from '../storage/types';

/**
 * Strapi's error envelope `{ data: null, error: { status, name, message, details } }`, the answer of
 * every HTTP route that fails. Every error Folio raises, HTTP's own (404 of a route, 405, 413, malformed
 * JSON) included, is a GraphQL error carrying its Strapi name (`extensions.error`, see
 * errors/graphql-errors), so one error family and one mapping serve every route.
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

export const INTERNAL_ERROR: ErrorBody = { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} };

/** The body of a Folio error, its status given by its Strapi name; undefined for an error Folio did not raise. */
export const strapiErrorBodyOf = (error: GraphQLError): ErrorBody | undefined => {
  const strapi = strapiErrorOf(error);
  return strapi && { status: httpStatusOf(strapi.name), name: strapi.name, message: strapi.message, details: strapi.details };
};

/** The body of a Folio error raised by an HTTP route (never a bug, so never a 500). */
export const errorBody = (error: GraphQLError): ErrorBody => strapiErrorBodyOf(error) ?? INTERNAL_ERROR;

/** The body of a Folio error or an unreachable store; undefined for anything else (a bug, for the server's 500). */
export const knownErrorBodyOf = (error: unknown): ErrorBody | undefined => {
  if (error instanceof StoreUnavailableError) return strapiErrorBodyOf(serviceUnavailable());
  return error instanceof GraphQLError ? strapiErrorBodyOf(error) : undefined;
};

export const errorEnvelope = (body: ErrorBody) => ({ data: null, error: body });
