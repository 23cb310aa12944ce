import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, errorEnvelope, type ErrorBody } from './error-envelope';
import { malformedJsonError, payloadTooLargeError, responseTooLargeError } from '../errors/graphql-errors';

/** JSON over HTTP for every route outside GraphQL: answers with their length, and request bodies within a limit. */

const writeJson = (response: ServerResponse, status: number, payload: string, bytes: number, headers: Record<string, string> = {}) => {
  response.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': bytes });
  response.end(payload);
};

export const sendJson = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const payload = JSON.stringify(body);
  writeJson(response, status, payload, Buffer.byteLength(payload), headers);
};

/** `sendJson`, unless the answer is over `maxBytes`: then a 400 saying so, and the answer is dropped. */
export const sendJsonWithin = (response: ServerResponse, maxBytes: number, status: number, body: unknown) => {
  const payload = JSON.stringify(body);
  const bytes = Buffer.byteLength(payload);
  if (bytes > maxBytes) return sendError(response, errorBody(responseTooLargeError(bytes, maxBytes)));
  writeJson(response, status, payload, bytes);
};

/** Whether `If-None-Match` names `etag` (weakly compared, as RFC 9110 has it for GET). */
const matches = (ifNoneMatch: string | undefined, etag: string): boolean =>
  ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));

/**
 * A read's 200 with an `ETag` (a hash of the body, so equal answers have equal tags whichever instance
 * made them): a client sending it back in `If-None-Match` gets a 304 without the body.
 */
export const sendReadWithin = (request: IncomingMessage, response: ServerResponse, maxBytes: number, body: unknown) => {
  const payload = JSON.stringify(body);
  const bytes = Buffer.byteLength(payload);
  if (bytes > maxBytes) return sendError(response, errorBody(responseTooLargeError(bytes, maxBytes)));
  const etag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
  if (matches(request.headers['if-none-match'], etag)) {
    response.writeHead(304, { etag });
    response.end();
    return;
  }
  writeJson(response, 200, payload, bytes, { etag });
};

export const sendEmpty = (response: ServerResponse, status: number) => {
  response.writeHead(status);
  response.end();
};

/** A failure after the answer has begun cannot be told to the client: the connection is cut instead. */
export const sendError = (response: ServerResponse, error: ErrorBody, headers: Record<string, string> = {}) => {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  sendJson(response, error.status, errorEnvelope(error), headers);
};

/**
 * Request bodies, at most `limit` bytes. A body over the limit is read to its end without being
 * kept, so that the client, still sending, can read the 413.
 */
export const readBody = (request: IncomingMessage, limit: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    request.on('error', reject);
    request.on('end', () => (tooLarge ? reject(payloadTooLargeError(`Request body is larger than ${limit} bytes`)) : resolve(Buffer.concat(chunks))));
    // A client gone before the end of its body: settle rather than wait forever (no-op after `end`).
    request.on('close', () => reject(new Error('request closed before its body ended')));
  });

/** The body as JSON; an empty one reads as `{}` (the official SDK labels bodyless requests JSON). */
export const readJsonBody = async (request: IncomingMessage, limit: number): Promise<unknown> => {
  const text = (await readBody(request, limit)).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw malformedJsonError((error as Error).message);
  }
};

/** Bodies of GET and DELETE are not read, only drained, so the connection stays usable. */
export const drainBody = (request: IncomingMessage) => {
  request.resume();
};
