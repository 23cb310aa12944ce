import { STATUS_CODES } from 'node:http';

/**
 * Strapi's error classes, as `require('@strapi/utils').errors` gives them to project code (same names,
 * default messages and details): a policy or middleware throwing one is answered with Strapi's
 * envelope and the status Strapi gives it.
 */

export type ErrorDetails = Record<string, unknown>;

/**
 * `errors.HttpError`, which @strapi/utils re-exports from http-errors 2.0.0 (the version Strapi 5
 * pins): the base of the errors Koa's `ctx.throw` makes, not of the ApplicationError classes. It is
 * abstract there: constructing it, or a subclass, throws this TypeError, so Strapi answers
 * `new errors.HttpError(...)` with a 500 and project code only tests `instanceof` against it.
 * Its instances come from `httpError`, as http-errors' come from `createError`.
 */
export abstract class HttpError extends Error {
  declare status: number;
  declare statusCode: number;
  /** http-errors': whether the message may be shown to the client (4xx) */
  declare expose: boolean;
  declare details: ErrorDetails;

  constructor() {
    super();
    throw new TypeError('cannot construct abstract class');
  }
}

/** `http-errors`' name for a status: its reason phrase in one word, ending in Error (`I'm a Teapot` → ImATeapotError). */
export const httpErrorName = (status: number): string => {
  const words = (STATUS_CODES[status] ?? 'Error').split(' ').map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  const name = words.join('').replace(/[^\w]/g, '');
  return name.endsWith('Error') ? name : `${name}Error`;
};

/** An HttpError of a 4xx or 5xx status, as `createError(status, message, { details })` makes it; named as http-errors names the status unless `name` says otherwise. */
export const httpError = (status: number, message: string, details: ErrorDetails = {}, name = httpErrorName(status)): HttpError => {
  const error = Object.setPrototypeOf(new Error(message), HttpError.prototype) as HttpError;
  error.name = name;
  Object.assign(error, { status, statusCode: status, expose: status < 500, details });
  return error;
};

export class ApplicationError extends Error {
  // declared, not defined: a class field would be an own key before `name`
  declare details: ErrorDetails;

  /** As Strapi's: the message set after `super()`, so `name`, `message` and `details` are its own enumerable keys, in that order (what `{ ...error }` and `JSON.stringify(error)` show). */
  constructor(message = 'An application error occured', details: ErrorDetails = {}) {
    super();
    this.name = 'ApplicationError';
    this.message = message;
    this.details = details;
  }
}

type ErrorClass = new (message?: string, details?: ErrorDetails) => ApplicationError;

/** A Strapi error class: its name (the class's too, as `error.constructor.name` reads it) and default message over its parent's. */
const errorClass = (name: string, defaultMessage: string, Base: ErrorClass = ApplicationError): ErrorClass => {
  const named = class extends Base {
    constructor(message = defaultMessage, details?: ErrorDetails) {
      super(message, details);
      this.name = name;
    }
  };
  return Object.defineProperty(named, 'name', { value: name });
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

/** Strapi's ApplicationError classes by name. */
export const APPLICATION_ERRORS = {
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
