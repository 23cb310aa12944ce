import type { ServerResponse } from 'node:http';
import { errorEnvelope, type ErrorBody } from './rest-error';

/** Writes REST answers: JSON with its length, an empty 204, or the error envelope. */

export const sendJson = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const payload = JSON.stringify(body);
  response.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
  response.end(payload);
};

export const sendEmpty = (response: ServerResponse, status: number) => {
  response.writeHead(status);
  response.end();
};

export const sendError = (response: ServerResponse, error: ErrorBody, headers: Record<string, string> = {}) => {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  sendJson(response, error.status, errorEnvelope(error), headers);
};
