import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorEnvelope, knownErrorBodyOf } from '../error-envelope';
import { sendJson } from '../http-json';
import { UploadAbortedError } from '../../media/receive-form';

/**
 * Answers of the upload routes: bare JSON on success (the upload plugin has no `{data, meta}`
 * envelope) and Strapi's error envelope on failure.
 */

// How long a connection is kept, unread, after an early answer: ample for the client to read it.
const LINGER_MS = 1000;

/**
 * An answer given before the body was read (forbidden, too large, wrong type) must not keep the
 * connection: Node would read the whole upload to reuse it. Closing at once is no better: closing
 * a socket with unread data makes the kernel reset the connection, and a client still sending can
 * lose the answer. So the answer is sent, the connection kept a moment without reading (the
 * client's sending stalls), then closed, in the spirit of nginx's and Apache's lingering close.
 */
const answerBeforeBodyRead = (request: IncomingMessage, response: ServerResponse, status: number, payload: string) => {
  request.pause();
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), connection: 'close' });
  response.write(payload);
  const close = () => {
    clearTimeout(timer);
    if (!response.writableEnded) response.end();
  };
  const timer = setTimeout(close, LINGER_MS);
  request.once('close', close);
};

export const sendUploadResult = (request: IncomingMessage, response: ServerResponse, status: number, body: unknown) => {
  if (request.complete) sendJson(response, status, body);
  else answerBeforeBodyRead(request, response, status, JSON.stringify(body));
};

/** Errors Folio raises become envelopes; anything else is rethrown for the server's 500. */
export const sendUploadError = (request: IncomingMessage, response: ServerResponse, error: unknown) => {
  if (error instanceof UploadAbortedError) {
    response.destroy();
    return;
  }
  const body = knownErrorBodyOf(error);
  if (!body) {
    // The server's 500 must not read the rest of an upload either.
    if (!request.complete) response.setHeader('connection', 'close');
    throw error;
  }
  // REST says "Forbidden" where GraphQL says "Forbidden access".
  const message = body.name === 'ForbiddenError' ? 'Forbidden' : body.message;
  sendUploadResult(request, response, body.status, errorEnvelope({ ...body, message }));
};
