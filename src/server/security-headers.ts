import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SecurityConfig } from '../config/types';

/**
 * Strapi's `strapi::security` (koa-helmet): the same headers on every answer of the HTTP front, set before
 * any route runs, so errors, 404s, GraphQL's and the upload files' answers carry them too.
 *
 * One page gets its own policy: yoga's GraphiQL (GET on the GraphQL endpoint with `Accept: text/html`, where
 * GraphiQL is on). It boots from two inline scripts, loads its bundle and styles from a CDN (unpkg), fetches
 * Monaco's editor workers from there and starts them from blob: URLs, and shows a favicon from GitHub. Strapi
 * relaxes its policy on its own playground the same way: that page's policy is the configured one with these
 * sources added, rather than none, so frame-ancestors, object-src, base-uri and form-action still hold there.
 * Swagger UI at /api/docs needs nothing more: its files are Folio's own and its page has no inline script.
 */

export type SecurityHeaders = (request: IncomingMessage, response: ServerResponse) => void;

export interface SecurityHeadersOptions {
  /** the GraphQL endpoint, when yoga serves GraphiQL there */
  graphiqlEndpoint?: string;
}

/**
 * Sources added on the GraphiQL page (graphql-yoga's graphiql-html). A `script-src` holding a nonce or a hash
 * makes browsers ignore 'unsafe-inline': such a policy keeps GraphiQL from starting.
 */
const GRAPHIQL_SOURCES: Record<string, string[]> = {
  'script-src': ["'self'", "'unsafe-inline'", 'https:'],
  'worker-src': ["'self'", 'blob:'],
  'style-src': ["'self'", "'unsafe-inline'", 'https:'],
  'img-src': ["'self'", 'data:', 'https:'],
  'font-src': ["'self'", 'data:', 'https:'],
  'connect-src': ["'self'", 'https:'],
};

const policyOf = (directives: Record<string, string[]>): string =>
  Object.entries(directives)
    .map(([name, sources]) => (sources.length > 0 ? `${name} ${sources.join(' ')}` : name))
    .join(';');

const withGraphiqlSources = (directives: Record<string, string[]>): Record<string, string[]> => {
  const relaxed = { ...directives };
  for (const [name, sources] of Object.entries(GRAPHIQL_SOURCES)) {
    // 'none' alone forbids everything; next to other sources it would only be ignored.
    relaxed[name] = [...new Set([...(directives[name] ?? []).filter((item) => item !== "'none'"), ...sources])];
  }
  return relaxed;
};

/** The [name, value] pairs of one kind of answer, the policy first as helmet sets it. */
const headersOf = ({ contentSecurityPolicy: csp, headers }: SecurityConfig, relax: (directives: Record<string, string[]>) => Record<string, string[]>) => {
  const pairs: Array<[string, string]> = [];
  if (csp) pairs.push([csp.reportOnly ? 'content-security-policy-report-only' : 'content-security-policy', policyOf(relax(csp.directives))]);
  return pairs.concat(Object.entries(headers));
};

const isGraphiqlPage = (request: IncomingMessage, endpoint: string): boolean => {
  if (request.method !== 'GET' || !request.headers.accept?.includes('text/html')) return false;
  const path = (request.url ?? '/').split('?')[0];
  return path === endpoint || path === `${endpoint}/`;
};

export const createSecurityHeaders = (config: SecurityConfig, { graphiqlEndpoint }: SecurityHeadersOptions = {}): SecurityHeaders => {
  const everywhere = headersOf(config, (directives) => directives);
  // As Strapi on its playground: no Cross-Origin-Embedder-Policy, which would refuse the CDN's files.
  const onGraphiql = headersOf(config, withGraphiqlSources).filter(([name]) => name !== 'cross-origin-embedder-policy');
  return (request, response) => {
    for (const [name, value] of graphiqlEndpoint !== undefined && isGraphiqlPage(request, graphiqlEndpoint) ? onGraphiql : everywhere) {
      response.setHeader(name, value);
    }
  };
};
