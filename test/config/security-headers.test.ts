import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { defaultSecurity, resolveSecurity } from '../../src/config/resolve-security';
import type { SecurityConfig } from '../../src/config/types';
import { renderOfflineGraphiql } from '../../src/graphql/graphiql/offline-graphiql';
import { createSecurityHeaders, type SecurityHeadersOptions } from '../../src/server/security-headers';
import { STRAPI_ANSWER_HEADERS, STRAPI_POLICY } from './strapi-security';

/** The headers the HTTP front sets from a resolved `strapi::security`, per request. */

const security = (config: Record<string, unknown>): SecurityConfig =>
  resolveSecurity(config, '', (path, message) => {
    throw new Error(`${path} ${message}`);
  });

const answer = (config: SecurityConfig, request: { method?: string; url?: string; accept?: string } = {}, options: SecurityHeadersOptions = {}) => {
  const message = new IncomingMessage(new Socket());
  message.method = request.method ?? 'GET';
  message.url = request.url ?? '/api/articles';
  if (request.accept) message.headers.accept = request.accept;
  const response = new ServerResponse(message);
  createSecurityHeaders(config, options)(message, response);
  return { names: response.getHeaderNames(), headers: response.getHeaders() };
};

const directivesOf = (policy: unknown) =>
  new Map(
    String(policy)
      .split(';')
      .map((directive) => {
        const [name, ...sources] = directive.split(' ');
        return [name, sources] as const;
      }),
  );

test("Strapi's headers, in helmet's order, the policy first", () => {
  const { names, headers } = answer(defaultSecurity());
  expect(headers).toEqual(STRAPI_ANSWER_HEADERS);
  expect(names).toEqual(Object.keys(STRAPI_ANSWER_HEADERS));
});

test('a report-only policy, or none', () => {
  const reportOnly = answer(security({ contentSecurityPolicy: { reportOnly: true } })).headers;
  expect(reportOnly['content-security-policy-report-only']).toBe(STRAPI_POLICY);
  expect(reportOnly).not.toHaveProperty('content-security-policy');
  const { headers } = answer(security({ contentSecurityPolicy: false, hsts: false, crossOriginResourcePolicy: true }));
  expect(headers).not.toHaveProperty('content-security-policy');
  expect(headers).not.toHaveProperty('strict-transport-security');
  expect(headers).toHaveProperty('cross-origin-resource-policy', 'same-origin');
});

describe("GraphiQL's page", () => {
  const graphiql = { graphiqlEndpoint: '/graphql' };
  const page = { method: 'GET', url: '/graphql', accept: 'text/html,application/xhtml+xml' };

  test('gets the configured policy with what the page loads added, Cross-Origin-Embedder-Policy kept (its files are same-origin)', () => {
    const config = security({ crossOriginEmbedderPolicy: true });
    const { headers } = answer(config, page, graphiql);
    const directives = directivesOf(headers['content-security-policy']);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('worker-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(expect.arrayContaining(["'self'", "'unsafe-inline'"]));
    expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    // what does not concern loading stays as configured
    expect(directives.get('frame-ancestors')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(headers).toHaveProperty('cross-origin-embedder-policy', 'require-corp');
    expect(headers).toMatchObject({ 'x-frame-options': 'SAMEORIGIN', 'x-content-type-options': 'nosniff' });
    expect(answer(config, { ...page, url: '/graphql/?query=%7B__typename%7D' }, graphiql).headers['content-security-policy']).toBe(headers['content-security-policy']);
  });

  test("every script, stylesheet and icon Folio's page loads is one of its own paths, and no script is inline", () => {
    const html = renderOfflineGraphiql({});
    const loads = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(loads.length).toBe(5);
    for (const url of loads) expect(url).toMatch(/^\/_graphiql\/[\w.-]+$/);
    expect(html).not.toMatch(/<script>/);
    expect(html).not.toContain('https://');
  });

  test('options that hold markup cannot end its options script', () => {
    const html = renderOfflineGraphiql({ title: '</script><script>alert(1)</script>', defaultQuery: '</script><script>alert(1)</script>' });
    expect(html.match(/<script/g)).toHaveLength(4);
    expect(html).toContain('<title>&lt;/script&gt;');
  });

  test("a configured 'none' gives way to the page's sources", () => {
    const config = security({ contentSecurityPolicy: { directives: { 'script-src': ["'none'"], 'worker-src': ["'none'"] } } });
    const directives = directivesOf(answer(config, page, graphiql).headers['content-security-policy']);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('worker-src')).toEqual(["'self'"]);
  });

  test('other requests to the endpoint, and any request when GraphiQL is off, get the policy as configured', () => {
    expect(answer(defaultSecurity(), { ...page, method: 'POST' }, graphiql).headers['content-security-policy']).toBe(STRAPI_POLICY);
    expect(answer(defaultSecurity(), { ...page, accept: 'application/json' }, graphiql).headers['content-security-policy']).toBe(STRAPI_POLICY);
    expect(answer(defaultSecurity(), { ...page, url: '/api/docs/' }, graphiql).headers['content-security-policy']).toBe(STRAPI_POLICY);
    expect(answer(defaultSecurity(), page).headers['content-security-policy']).toBe(STRAPI_POLICY);
  });
});
