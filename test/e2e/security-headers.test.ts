import { defaultPlugins, startTestServer, type TestServer } from '../support/test-server';
import { png } from '../upload/images';
import { uploaded, uploadTestConfig } from '../upload/upload-server';
import { STRAPI_ANSWER_HEADERS as STRAPI_HEADERS } from '../config/strapi-security';

/**
 * Strapi's `strapi::security` headers on every answer of the HTTP front, as `config/middlewares` sets them,
 * and `server.proxy`: the client address the sign-in rate limit counts by.
 */

const HELMET_NAMES = [...Object.keys(STRAPI_HEADERS), 'content-security-policy-report-only', 'cross-origin-embedder-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'x-xss-protection'];

/** The response's helmet headers, by lower-case name. */
const securityHeaders = (response: Response): Record<string, string> => Object.fromEntries([...response.headers].filter(([name]) => HELMET_NAMES.includes(name)));

const send = (server: TestServer, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  fetch(`${server.url}${path}`, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body });

const GRAPHQL_BODY = JSON.stringify({ query: '{ articles { title } }' });

/** A server for the enclosing describe: started before its tests, stopped after them. */
const serverFor = (start: () => Promise<TestServer>): (() => TestServer) => {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server?.stop());
  return () => server!;
};

describe("no config/middlewares: Strapi's headers on every answer", () => {
  let fileUrl: string;
  const server = serverFor(async () => {
    const started = await startTestServer({ config: uploadTestConfig() });
    [{ url: fileUrl }] = await uploaded(started, [{ name: 'pixel.png', content: png(4, 4), type: 'image/png' }]);
    return started;
  });

  test.each([
    ['GET /api/articles', 'GET', '/api/articles', {}, undefined, 200],
    ['POST /graphql', 'POST', '/graphql', {}, GRAPHQL_BODY, 200],
    ["yoga's error answer", 'POST', '/graphql', {}, JSON.stringify({ query: '{ articles {' }), 400],
    ['a 404', 'GET', '/api/nothing-here', {}, undefined, 404],
    ['an error', 'GET', '/api/articles', { authorization: 'Bearer not-a-token' }, undefined, 401],
    ['a malformed body', 'POST', '/api/auth/local', {}, '{', 400],
    ['the health check', 'GET', '/_health', {}, undefined, 200],
    ['a preflight', 'OPTIONS', '/graphql', { origin: 'https://app.example.com', 'access-control-request-method': 'POST' }, undefined, 204],
  ])('%s', async (_, method, path, headers, body, status) => {
    const response = await send(server(), method, path, headers, body);
    expect(response.status).toBe(status);
    expect(securityHeaders(response)).toEqual(STRAPI_HEADERS);
  });

  test('an uploaded file, above all nosniff', async () => {
    const response = await send(server(), 'GET', fileUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(securityHeaders(response)).toEqual(STRAPI_HEADERS);
    const missing = await send(server(), 'GET', '/uploads/nothing_0123456789.png');
    expect(missing.status).toBe(404);
    expect(securityHeaders(missing)).toEqual(STRAPI_HEADERS);
  });

  test('Swagger UI is still served, and needs no inline script: its page loads its own files only', async () => {
    const page = await send(server(), 'GET', '/api/docs/');
    expect(page.status).toBe(200);
    expect(securityHeaders(page)).toEqual(STRAPI_HEADERS);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attributes]) => attributes.match(/src="([^"]+)"/)?.[1])).toEqual(['./swagger-ui-bundle.js', './swagger-ui-standalone-preset.js', './swagger-initializer.js']);
    expect(scripts.every(([, , content]) => content.trim() === '')).toBe(true);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect([...html.matchAll(/(?:href|src)="([^"]+)"/g)].every(([, url]) => !/^[a-z]+:/i.test(url))).toBe(true);
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-initializer.js']) {
      const response = await send(server(), 'GET', `/api/docs/${file}`);
      expect(response.status).toBe(200);
      expect(securityHeaders(response)).toEqual(STRAPI_HEADERS);
    }
    // its badge would be an image from validator.swagger.io, which img-src refuses
    expect(await (await send(server(), 'GET', '/api/docs/swagger-initializer.js')).text()).toContain('validatorUrl: null');
  });

  test("GraphiQL's page gets a policy that lets it load its own files and nothing from another origin", async () => {
    const response = await send(server(), 'GET', '/graphql', { accept: 'text/html' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('GraphiQL');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("worker-src 'self'");
    expect(policy).not.toMatch(/script-src[^;]*(https:|unsafe-inline)/);
    expect(policy).toContain("frame-ancestors 'self'");
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    // the same endpoint answering JSON keeps the strict policy
    const json = await send(server(), 'GET', '/graphql?query=%7B__typename%7D', { accept: 'application/json' });
    expect(json.headers.get('content-security-policy')).toBe(STRAPI_HEADERS['content-security-policy']);
  });
});

describe('strapi::security with a config', () => {
  const server = serverFor(() =>
    startTestServer({
      config: { middlewares: ['strapi::errors', { name: 'strapi::security', config: { contentSecurityPolicy: false, frameguard: { action: 'deny' } } }, 'strapi::cors'] },
    }),
  );

  test('contentSecurityPolicy: false sends no policy; the rest as configured', async () => {
    for (const response of [await send(server(), 'GET', '/api/articles'), await send(server(), 'POST', '/graphql', {}, GRAPHQL_BODY), await send(server(), 'GET', '/graphql', { accept: 'text/html' })]) {
      expect(response.status).toBe(200);
      const { 'content-security-policy': _, ...rest } = STRAPI_HEADERS;
      expect(securityHeaders(response)).toEqual({ ...rest, 'x-frame-options': 'DENY' });
    }
  });
});

describe('a middlewares array without strapi::security', () => {
  const server = serverFor(() => startTestServer({ config: { middlewares: ['strapi::errors', 'strapi::cors', 'strapi::body'] } }));

  test('no security header on any answer', async () => {
    for (const response of [
      await send(server(), 'GET', '/api/articles'),
      await send(server(), 'POST', '/graphql', {}, GRAPHQL_BODY),
      await send(server(), 'GET', '/api/nothing-here'),
      await send(server(), 'GET', '/api/docs/'),
    ]) {
      expect(securityHeaders(response)).toEqual({});
    }
  });
});

describe('the sign-in rate limit behind a reverse proxy (server.proxy)', () => {
  const rateLimited = (server: Record<string, unknown> = {}) =>
    startTestServer({
      config: {
        plugins: defaultPlugins({ 'users-permissions': { config: { rateLimit: { max: 2, windowMs: 60_000 } } } }),
        server,
      },
    });
  const signIn = (server: TestServer, forwardedFor: string) =>
    send(server, 'POST', '/api/auth/local', { 'x-forwarded-for': forwardedFor }, JSON.stringify({ identifier: 'nobody', password: 'whatever' }));
  const graphqlSignIn = (server: TestServer, forwardedFor: string) =>
    server.gql('mutation { login(input: { identifier: "nobody", password: "whatever" }) { jwt } }', undefined, { 'x-forwarded-for': forwardedFor });

  describe('proxy: { koa: true }', () => {
    const server = serverFor(() => rateLimited({ proxy: { koa: true } }));

    test('clients with different X-Forwarded-For are limited separately, on REST and GraphQL', async () => {
      // the proxy appends the address it saw: the first one is the client's
      expect((await signIn(server(), '203.0.113.1')).status).toBe(400);
      expect((await graphqlSignIn(server(), '203.0.113.1, 10.0.0.2')).status).toBe(200);
      expect((await signIn(server(), '203.0.113.1')).status).toBe(429);
      expect((await graphqlSignIn(server(), '203.0.113.1')).status).toBe(429);

      const other = await signIn(server(), '203.0.113.2');
      expect(other.status).toBe(400);
      expect(other.headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await graphqlSignIn(server(), '203.0.113.2')).status).toBe(200);
      expect((await signIn(server(), '203.0.113.2')).status).toBe(429);
    });
  });

  describe('without proxy', () => {
    const server = serverFor(() => rateLimited());

    test('X-Forwarded-For is ignored: every client behind one address shares the limit', async () => {
      expect((await signIn(server(), '203.0.113.1')).status).toBe(400);
      expect((await graphqlSignIn(server(), '203.0.113.2')).status).toBe(200);
      expect((await signIn(server(), '203.0.113.3')).status).toBe(429);
      expect((await graphqlSignIn(server(), '203.0.113.4')).status).toBe(429);
    });
  });
});
