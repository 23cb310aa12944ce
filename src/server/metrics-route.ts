import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoute } from './folio-module';
import { errorBody } from './error-envelope';
import { sendError } from './http-json';
import { unauthorizedError } from '../errors/graphql-errors';
import type { FolioMetrics, Surface } from '../metrics/folio-metrics';
import { secondsSince } from '../metrics/seconds-since';

/** `GET /metrics` (`server.metrics`): prom-client's text format; with a token, only for `Authorization: Bearer <token>`. */

const METRICS_PATH = '/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

export const createMetricsRoute = (metrics: FolioMetrics, token: string | undefined): HttpRoute => {
  // compared as digests: equal lengths, so timingSafeEqual tells nothing about the token's length either
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  return async (request, response, url) => {
    if (url.pathname !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    if (expected && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
      sendError(response, errorBody(unauthorizedError()));
      return true;
    }
    const body = await metrics.registry.metrics();
    response.writeHead(200, { 'content-type': metrics.registry.contentType, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : body);
    return true;
  };
};

/** Records each answer of the HTTP front, by the surface its path belongs to. */
export const createRequestMeter = (metrics: FolioMetrics, graphqlEndpoint: string) => {
  const surfaceOf = (path: string): Surface => (path === graphqlEndpoint ? 'graphql' : path === '/api' || path.startsWith('/api/') ? 'rest' : 'other');
  return (request: IncomingMessage, response: ServerResponse) => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const surface = surfaceOf((request.url ?? '/').split('?')[0]);
      metrics.httpRequests.labels(surface, String(response.statusCode)).inc();
      metrics.httpDuration.labels(surface).observe(secondsSince(started));
      if (response.statusCode === 429) metrics.rateLimitRefusals.labels(surface).inc();
    });
  };
};
