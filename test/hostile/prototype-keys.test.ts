import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';
import { call } from '../auth/http';

/**
 * Keys a client writes are data, never the names of JavaScript's own properties: `toString`,
 * `constructor`, `hasOwnProperty`, `__proto__` in a dynamic-zone entry, a component, or the
 * `data` of a body were 500s. A JSON attribute keeps them as given; anywhere else they are a 400
 * naming the key.
 */

const PROTOTYPE_KEYS = ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf', '__defineGetter__'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** A body written as text: `JSON.stringify` would drop a `__proto__` key set through an object literal. */
const post = (path: string, rawBody: string) => call(server.url, 'POST', path, { rawBody, headers: server.asAdmin });

test.each(PROTOTYPE_KEYS)('a JSON attribute with key %s is stored and read back as given', async (key) => {
  const created = await post('/api/articles', `{"data":{"title":"json ${key}","extra":{"${key}":1,"nested":{"${key}":{"a":[1]}}}}}`);
  expect(created.status).toBe(201);
  const { documentId } = (created.body as { data: { documentId: string } }).data;
  const read = await call<{ data: { extra: unknown } }>(server.url, 'GET', `/api/articles/${documentId}?status=draft`, { headers: server.asAdmin });
  expect(read.status).toBe(200);
  expect(JSON.stringify(read.body.data.extra)).toBe(`{"${key}":1,"nested":{"${key}":{"a":[1]}}}`);
});

test.each(PROTOTYPE_KEYS)('a dynamic-zone entry with key %s: 400 naming it', async (key) => {
  const answer = await post('/api/articles', `{"data":{"title":"dz","sections":[{"__component":"shared.quote","text":"t","${key}":"x"}]}}`);
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
  expect(JSON.stringify(answer.body)).toContain(key);
});

test.each(PROTOTYPE_KEYS)('a component with key %s: 400 naming it', async (key) => {
  const answer = await post('/api/articles', `{"data":{"title":"seo","seo":{"metaTitle":"m","${key}":"x"}}}`);
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ error: { status: 400, name: 'ValidationError' } });
  expect(JSON.stringify(answer.body)).toContain(key);
});

test.each(PROTOTYPE_KEYS)('a top-level data key %s: 400 naming it', async (key) => {
  const answer = await post('/api/articles', `{"data":{"title":"top","${key}":"x"}}`);
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ error: { status: 400, name: 'ValidationError' } });
  expect(JSON.stringify(answer.body)).toContain(key);
});

test.each(PROTOTYPE_KEYS)('a dynamic-zone __component named %s: 400', async (key) => {
  const answer = await post('/api/articles', `{"data":{"title":"dz","sections":[{"__component":"${key}"}]}}`);
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ error: { status: 400, name: 'ValidationError' } });
});

test.each(PROTOTYPE_KEYS)('GraphQL: a JSON argument with key %s is kept', async (key) => {
  const raw = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: `{"query":"mutation($extra: JSON) { createArticle(data: { title: \\"gql\\", extra: $extra }) { extra } }","variables":{"extra":{"${key}":2}}}`,
  });
  const body = (await raw.json()) as { data: { createArticle: { extra: unknown } } };
  expect(raw.status).toBe(200);
  expect(JSON.stringify(body.data.createArticle.extra)).toBe(`{"${key}":2}`);
});

test('a __proto__ key in a JSON attribute survives a restart of the embedded store', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-proto-'));
  const embedded = { database: { client: 'embedded' } };
  const first = await startTestServer({ dataDir, config: embedded });
  const raw = '{"__proto__":{"polluted":true},"list":[{"__proto__":null}]}';
  let documentId: string;
  try {
    const created = await call<{ data: { documentId: string } }>(first.url, 'POST', '/api/articles', { rawBody: `{"data":{"title":"kept","extra":${raw}}}`, headers: first.asAdmin });
    expect(created.status).toBe(201);
    documentId = created.body.data.documentId;
  } finally {
    await first.stop();
  }
  const second = await startTestServer({ dataDir, config: embedded });
  try {
    const read = await call<{ data: { extra: unknown } }>(second.url, 'GET', `/api/articles/${documentId}?status=draft`, { headers: second.asAdmin });
    expect(JSON.stringify(read.body.data.extra)).toBe(raw);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  } finally {
    await second.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// /api/users and /api/upload/files parse their query strings with the content routes' parser: a
// prototype key there was dropped by qs, widening the filter it stood in.
test.each(['/api/users', '/api/users/count', '/api/upload/files'])('%s refuses a prototype key in its query string with 400', async (path) => {
  for (const search of ['filters[__proto__][username]=x', 'filters[constructor][prototype][x]=1', 'sort[toString]=1']) {
    const response = await call<{ error: { name: string; details: { source: string } } }>(server.url, 'GET', `${path}?${search}`, { headers: server.asAdmin });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ name: 'ValidationError', details: { source: 'query' } });
  }
});
