import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorEnvelope, type ErrorBody } from './error-envelope';

/**
 * Requests node's HTTP parser refuses before any handler runs (headers over `server.maxHeaderSize`,
 * a malformed request line, a timeout): answered in Strapi's envelope, as every error Folio sends,
 * rather than with node's bare status line.
 */

const bodyOf = (code: string | undefined, maxHeaderSize: number): ErrorBody => {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      name: 'RequestHeaderFieldsTooLargeError',
      message: `The request line and headers are larger than ${maxHeaderSize} bytes (server.maxHeaderSize)`,
      details: {},
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, name: 'RequestTimeoutError', message: 'The request was not received in time', details: {} };
  return { status: 400, name: 'BadRequestError', message: 'Malformed HTTP request', details: {} };
};

export const createClientErrorHandler = (maxHeaderSize: number) => (error: NodeJS.ErrnoException, socket: Duplex) => {
  // a client gone, or an answer already under way: nobody to tell
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const body = bodyOf(error.code, maxHeaderSize);
  const payload = JSON.stringify(errorEnvelope(body));
  socket.end(
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
  );
};
