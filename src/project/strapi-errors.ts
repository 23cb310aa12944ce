/**
 * Strapi's error classes, as `require('@strapi/utils').errors` gives them to project code (same names,
 * default messages and details): a policy or middleware throwing one is answered with Strapi's
 * envelope and the status Strapi gives it.
 */

export type ErrorDetails = Record<string, unknown>;

export class ApplicationError extends Error {
  details: ErrorDetails;

  constructor(message = 'An application error occured', details: ErrorDetails = {}) {
    super(message);
    this.name = 'ApplicationError';
    this.details = details;
  }
}

type ErrorClass = new (message?: string, details?: ErrorDetails) => ApplicationError;

/** A Strapi error class: its name and default message over its parent's. */
const errorClass = (name: string, defaultMessage: string, Base: ErrorClass = ApplicationError): ErrorClass =>
  class extends Base {
    constructor(message = defaultMessage, details?: ErrorDetails) {
      super(message, details);
      this.name = name;
    }
  };

export const ValidationError = errorClass('ValidationError', 'Validation error');
export const PaginationError = errorClass('PaginationError', 'Invalid pagination');
export const NotFoundError = errorClass('NotFoundError', 'Entity not found');
export const ForbiddenError = errorClass('ForbiddenError', 'Forbidden access');
export const UnauthorizedError = errorClass('UnauthorizedError', 'Unauthorized');
export const RateLimitError = errorClass('RateLimitError', 'Too many requests, please try again later.');
export const PayloadTooLargeError = errorClass('PayloadTooLargeError', 'Entity too large');
export const PolicyError = errorClass('PolicyError', 'Policy Failed', ForbiddenError);
export const NotImplementedError = errorClass('NotImplementedError', 'This feature is not implemented yet');

export const STRAPI_ERRORS = {
  ApplicationError,
  ValidationError,
  PaginationError,
  NotFoundError,
  ForbiddenError,
  UnauthorizedError,
  RateLimitError,
  PayloadTooLargeError,
  PolicyError,
  NotImplementedError,
};

/** Strapi's status of each class (its `formatApplicationError`): the first that matches, 400 for the rest. */
const STATUS: Array<[ErrorClass, number]> = [
  [UnauthorizedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [PayloadTooLargeError, 413],
  [RateLimitError, 429],
  [NotImplementedError, 501],
];

export const statusOfApplicationError = (error: ApplicationError): number => STATUS.find(([type]) => error instanceof type)?.[1] ?? 400;
