import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFolio } from '../../src/app/start-folio';
import { EXAMPLE_SCHEMA, startTestServer, type TestServer } from '../support/test-server';

/** Strapi's `strapi::cors` over HTTP, on every route, as `config/middlewares` sets it. */

const APP = 'https://app.example.com';
const STRAPI_MIDDLEWARES = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::poweredBy', 'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public'];

/** The response's Vary and Access-Control-* headers, by lower-case name. */
const corsHeaders = (response: Response): Record<string, string> =>
  Object.fromEntries([...response.headers].filter(([name]) => name === 'vary' || name.startsWith('access-control-')));

const send = (server: TestServer, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  fetch(`${server.url}${path}`, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body });

const preflight = (server: TestServer, path: string, origin = APP) =>
  send(server, 'OPTIONS', path, { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' });

const GRAPHQL_BODY = JSON.stringify({ query: '{ articles { title } }' });

describe('no config/middlewares: Strapi\'s default CORS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  test('a request without Origin gets what Strapi answers: Vary, Allow-Origin *, Allow-Credentials', async () => {
    const response = await send(server, 'GET', '/api/articles');
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({ vary: 'Origin', 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' });
  });

  test.each([
    ['GET /api/articles', 'GET', '/api/articles', undefined, 200],
    ['POST /graphql', 'POST', '/graphql', GRAPHQL_BODY, 200],
    ['a 404', 'GET', '/api/nothing-here', undefined, 404],
    ['a 403', 'POST', '/api/articles', JSON.stringify({ data: { title: 'not allowed' } }), 403],
    ['a failed login', 'POST', '/api/auth/local', JSON.stringify({ identifier: 'nobody@example.com', password: 'wrong-password' }), 400],
    ['a missing upload', 'GET', '/uploads/0123456789abcdef.png', undefined, 404],
    ['the health check', 'GET', '/_health', undefined, 200],
  ])('%s names the request\'s origin (credentials are on)', async (_, method, path, body, status) => {
    const response = await send(server, method, path, { origin: APP }, body);
    expect(response.status).toBe(status);
    expect(corsHeaders(response)).toEqual({ vary: 'Origin', 'access-control-allow-origin': APP, 'access-control-allow-credentials': 'true' });
  });

  test.each(['/api/articles', '/graphql'])('a preflight to %s is answered with 204 and the allowed methods and headers', async (path) => {
    const response = await preflight(server, path);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(corsHeaders(response)).toEqual({
      vary: 'Origin',
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-max-age': '31536000',
      'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS',
      'access-control-allow-headers': 'Content-Type,Authorization,Origin,Accept',
    });
  });

  test('an OPTIONS that is not a preflight goes to the routes', async () => {
    const response = await send(server, 'OPTIONS', '/api/articles', { origin: APP });
    expect(response.status).toBe(405);
    expect(corsHeaders(response)).toEqual({ vary: 'Origin' });
  });
});

describe('strapi::cors with a list of origins', () => {
  let server: TestServer;
  beforeAll(async () => {
    const cors = { name: 'strapi::cors', config: { origin: [APP] } };
    server = await startTestServer({ config: { middlewares: [...STRAPI_MIDDLEWARES.slice(0, 3), cors, ...STRAPI_MIDDLEWARES.slice(3)] } });
  });
  afterAll(() => server.stop());

  test('a listed origin is named', async () => {
    expect(corsHeaders(await send(server, 'GET', '/api/articles', { origin: APP }))).toEqual({
      vary: 'Origin',
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
    });
    const answer = await preflight(server, '/graphql');
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
  });

  test('an unlisted origin gets no CORS headers, and its preflight is not answered', async () => {
    const evil = 'https://evil.example.com';
    const response = await send(server, 'POST', '/graphql', { origin: evil }, GRAPHQL_BODY);
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({ vary: 'Origin' });
    const answer = await preflight(server, '/api/articles', evil);
    expect(answer.status).toBe(405);
    expect(corsHeaders(answer)).toEqual({ vary: 'Origin' });
  });
});

describe('config/middlewares without strapi::cors', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { middlewares: STRAPI_MIDDLEWARES } });
  });
  afterAll(() => server.stop());

  test('no route sends CORS headers', async () => {
    for (const response of [
      await send(server, 'GET', '/api/articles', { origin: APP }),
      await send(server, 'POST', '/graphql', { origin: APP }, GRAPHQL_BODY),
      await send(server, 'GET', '/api/nothing-here', { origin: APP }),
    ]) {
      expect(corsHeaders(response)).toEqual({});
    }
  });

  test.each(['/api/articles', '/graphql'])('a preflight to %s is not answered with 204', async (path) => {
    const response = await preflight(server, path);
    expect(response.status).not.toBe(204);
    expect(corsHeaders(response)).toEqual({});
  });
});

test('a custom middleware stops start-up with a config error naming the file and the index', async () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-cors-'));
  try {
    const configDir = join(root, 'config');
    mkdirSync(configDir);
    writeFileSync(join(configDir, 'middlewares.json'), JSON.stringify([...STRAPI_MIDDLEWARES, 'global::custom']));
    const started = startFolio({ schemaDir: EXAMPLE_SCHEMA, configDir, dataDir: join(root, 'data'), host: '127.0.0.1', port: 0, env: { NODE_ENV: 'test' } });
    await expect(started).rejects.toThrow(
      `${join(configDir, 'middlewares.json')}: [9] "global::custom" is not one of Strapi's built-in middlewares; Folio does not run custom Koa middlewares`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
