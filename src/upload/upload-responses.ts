import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { httpStatusOf, strapiErrorOf } from '../errors/graphql-errors';
import { sendJson } from '../server/http-server';
import { UploadAbortedError } from './receive-form';

/**
 * Answers of the upload routes: bare JSON on success (the upload plugin has no `{data, meta}`
 * envelope) and Strapi's error envelope on failure.
 */

/**
 * An answer given before the body was read (forbidden, too large, wrong type) closes the
 * connection: keeping it alive would make Node read, and discard, the rest of the upload.
 */
const closeIfUnread = (request: IncomingMessage, response: ServerResponse) => {
  if (!request.complete) response.setHeader('connection', 'close');
};

export const sendUploadResult = (request: IncomingMessage, response: ServerResponse, status: number, body: unknown) => {
  closeIfUnread(request, response);
  sendJson(response, status, body);
};

/** Errors Folio raises become envelopes; anything else is rethrown for the server's 500. */
export const sendUploadError = (request: IncomingMessage, response: ServerResponse, error: unknown) => {
  if (error instanceof UploadAbortedError) {
    response.destroy();
    return;
  }
  const strapi = error instanceof GraphQLError ? strapiErrorOf(error) : undefined;
  if (!strapi) {
    closeIfUnread(request, response);
    throw error;
  }
  // REST says "Forbidden" where GraphQL says "Forbidden access".
  const message = strapi.name === 'ForbiddenError' ? 'Forbidden' : strapi.message;
  sendUploadResult(request, response, httpStatusOf(strapi.name), { data: null, error: { status: httpStatusOf(strapi.name), name: strapi.name, message, details: strapi.details } });
};
