import { maskError as yogaMaskError, type YogaServerOptions } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import { serviceUnavailable, serviceUnavailableInPlaceOf } from '../errors/graphql-errors';
import { StoreUnavailableError } from '../storage/types';

/**
 * yoga's error masking, except that an unreachable database is said as such: a 503 with
 * `SERVICE_UNAVAILABLE` (REST answers the same envelope), not an "Unexpected error."; the
 * driver's message stays in no answer.
 */

type MaskError = NonNullable<Exclude<YogaServerOptions<object, object>['maskedErrors'], boolean | undefined>['maskError']>;

const unavailableCause = (error: unknown): boolean => {
  for (let current = error, hops = 0; current instanceof Error && hops < 5; hops += 1) {
    if (current instanceof StoreUnavailableError) return true;
    current = current instanceof GraphQLError ? current.originalError : current.cause;
  }
  return false;
};

export const maskError: MaskError = (error, message, isDev) => {
  if (!unavailableCause(error)) return yogaMaskError(error, message, isDev);
  return error instanceof GraphQLError ? serviceUnavailableInPlaceOf(error) : serviceUnavailable();
};
