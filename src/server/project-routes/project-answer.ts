import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { APPLICATION_ERRORS, ApplicationError, HttpError, httpError, httpErrorName, statusOfApplicationError } from '../../project/strapi-errors';
import type { KoaContext } from './koa-context';
import { errorBodyOf } from '../content-routes/rest-error';
import { GraphQLError } from 'graphql';
import { errorBody, INTERNAL_ERROR, knownErrorBodyOf, type ErrorBody } from '../error-envelope';
import { notFoundError } from '../../errors/graphql-errors';
import { sendEmpty, sendError, sendJsonWithin, sendReadWithin } from '../http-json';

/**
 * How a project route answers: what its policies, middlewares and core action left in `ctx`, or
 * the error one of them threw, in Strapi's envelope with the status Strapi gives it.
 */

/**
 * What a core action's refusal throws into project code, as Strapi's core actions throw: the class
 * of `require('@strapi/utils').errors` of its name (`errors.NotFoundError` for a 404,
 * `errors.ValidationError` for a 400), so a middleware or a controller's `catch` tells them apart by
 * `instanceof` or `name`; a refusal no class of Strapi's gives with its status (a 503) is an
 * `errors.HttpError` of its name, as Koa's would be. Uncaught, it answers the envelope it came from.
 */
export const coreActionError = (body: ErrorBody): Error => {
  if (Object.hasOwn(APPLICATION_ERRORS, body.name)) {
    const error = new APPLICATION_ERRORS[body.name as keyof typeof APPLICATION_ERRORS](body.message, body.details);
    if (statusOfApplicationError(error) === body.status) return error;
  }
  return httpError(body.status, body.message, body.details, body.name);
};

/**
 * The envelope of what a policy, a middleware or the core action threw. `file`: where an unexpected
 * error came from, for the log line; the client gets Strapi's generic 500.
 */
export const projectErrorBody = (error: unknown, file: string | undefined): ErrorBody => {
  if (error instanceof ApplicationError) return { status: statusOfApplicationError(error), name: error.name, message: error.message, details: error.details ?? {} };
  if (error instanceof HttpError) return { status: error.status, name: error.name, message: error.message, details: error.details };
  if (error instanceof GraphQLError) return errorBodyOf(error);
  const known = knownErrorBodyOf(error);
  if (known) return known;
  process.stderr.write(`REST: ${file ?? 'a project route'}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return INTERNAL_ERROR;
};

const statusBody = (status: number): ErrorBody => ({ status, name: httpErrorName(status), message: STATUS_CODES[status] ?? 'Error', details: {} });

/** `ctx` as Koa would send it: JSON for objects, text for strings, Strapi's 404 when nothing answered. */
export const sendProjectAnswer = (request: IncomingMessage, response: ServerResponse, ctx: KoaContext, maxResponseBytes: number) => {
  for (const [name, value] of Object.entries(ctx.responseHeaders)) response.setHeader(name, value);
  const { body, status } = ctx;
  if (body === undefined || body === null) {
    if (ctx.explicitStatus === undefined) return sendError(response, errorBody(notFoundError()));
    return status >= 400 ? sendError(response, statusBody(status)) : sendEmpty(response, status);
  }
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    if (!response.hasHeader('content-type')) response.setHeader('content-type', typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream');
    response.writeHead(status, { 'content-length': Buffer.byteLength(body) });
    response.end(body);
    return;
  }
  if (status === 200 && (request.method === 'GET' || request.method === 'HEAD')) return sendReadWithin(request, response, maxResponseBytes, body);
  return sendJsonWithin(response, maxResponseBytes, status, body);
};
