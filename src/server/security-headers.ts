import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SecurityConfig } from '../config/types';

/**
 * Strapi's `strapi::security` (koa-helmet): the same headers on every answer of the HTTP front, set before
 * any route runs, so errors, 404s, GraphQL's and the upload files' answers carry them too.
 *
 * One page gets its own policy: GraphiQL (GET on the GraphQL endpoint with `Accept: text/html`, where
 * GraphiQL is on). Its files are Folio's own (see offline-graphiql), but its editor injects styles and reads
 * icons and fonts from data: URLs. Strapi relaxes its policy on its own playground the same way: that page's
 * policy is the configured one with these sources added, rather than none, so frame-ancestors, object-src,
 * base-uri and form-action still hold there.
 * Swagger UI at /api/docs needs nothing more: its files are Folio's own and its page has no inline script.
 */

export type SecurityHeaders = (request: IncomingMessage, response: ServerResponse) => void;

export interface SecurityHeadersOptions {
  /** the GraphQL endpoint, when yoga serves GraphiQL there */
  graphiqlEndpoint?: string;
}

/** Sources added on the GraphiQL page: no other origin, and no inline script. */
const GRAPHIQL_SOURCES: Record<string, string[]> = {
  'script-src': ["'self'"],
  'worker-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
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
  const onGraphiql = headersOf(config, withGraphiqlSources);
  return (request, response) => {
    for (const [name, value] of graphiqlEndpoint !== undefined && isGraphiqlPage(request, graphiqlEndpoint) ? onGraphiql : everywhere) {
      response.setHeader(name, value);
    }
  };
};
