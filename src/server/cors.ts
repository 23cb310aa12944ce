import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CorsConfig } from '../config/types';

/**
 * Strapi's `strapi::cors`: its origin rules on top of @koa/cors, for every answer of the HTTP front.
 * It runs before any route, so error answers and 404s carry the headers too, as Strapi's do.
 */

/** Sets the CORS headers; true when it has answered the request (a preflight) and nothing else should. */
export type Cors = (request: IncomingMessage, response: ServerResponse) => boolean;

/** The `Access-Control-Allow-Origin` for a request's `Origin` ('' when it sent none); undefined: no CORS headers. */
export const originRule = ({ origin, credentials }: Pick<CorsConfig, 'origin' | 'credentials'>): ((requestOrigin: string) => string | undefined) => {
  const listed = Array.isArray(origin) ? origin : origin.split(',').map((item) => item.trim());
  if (Array.isArray(origin) || listed.length > 1) {
    return (requestOrigin) => (requestOrigin === '' ? '*' : listed.includes(requestOrigin) ? requestOrigin : undefined);
  }
  // Browsers refuse `*` on a request with credentials, so @koa/cors names the request's origin instead.
  return (requestOrigin) => (requestOrigin === '' ? '*' : origin === '*' && credentials ? requestOrigin : origin);
};

// @koa/cors joins lists with ',' and sends strings as they are; an empty value sends no header.
const headerValue = (value: string | string[] | undefined): string => (Array.isArray(value) ? value.join(',') : (value ?? ''));

export const createCors = (config: CorsConfig): Cors => {
  const allowOrigin = originRule(config);
  const expose = headerValue(config.expose);
  const methods = headerValue(config.methods);
  const allowHeaders = headerValue(config.headers);
  return (request, response) => {
    // Caches must not hand one origin's answer to another.
    response.setHeader('Vary', 'Origin');
    const origin = allowOrigin(request.headers.origin ?? '');
    if (origin === undefined) return false;
    const preflight = request.method === 'OPTIONS';
    // An OPTIONS that is not a preflight is an ordinary request for the routes, without CORS headers (as @koa/cors).
    if (preflight && !request.headers['access-control-request-method']) return false;
    response.setHeader('Access-Control-Allow-Origin', origin);
    if (config.credentials) response.setHeader('Access-Control-Allow-Credentials', 'true');
    if (!preflight) {
      if (expose) response.setHeader('Access-Control-Expose-Headers', expose);
      return false;
    }
    if (config.maxAge) response.setHeader('Access-Control-Max-Age', String(config.maxAge));
    if (methods) response.setHeader('Access-Control-Allow-Methods', methods);
    const headers = allowHeaders || request.headers['access-control-request-headers'];
    if (headers) response.setHeader('Access-Control-Allow-Headers', headers);
    response.writeHead(204);
    response.end();
    return true;
  };
};
