import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRODUCTION_ENV, startTestServer, type TestServer } from '../support/test-server';
import { eventually } from '../support/eventually';
import { call } from '../auth/http';
import { startCongo, type CongoProcess } from './congo-process';

/**
 * With the database gone, Folio answers a clear 503 within ~2 s on both surfaces (it was a 500
 * after 10 s), says nothing of the driver, and serves again as soon as the database is back,
 * without a restart. The database is a server of this test's own, stopped and started again.
 */

let database: CongoProcess;
let server: TestServer;
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'folio-congo-'));
  database = await startCongo(folder);
  server = await startTestServer({ env: PRODUCTION_ENV, config: { database: { client: 'mongodb', uri: database.url, options: { dbName: 'folio_down' } } } });
});
afterAll(async () => {
  await server.stop();
  await database.stop();
  rmSync(folder, { recursive: true, force: true });
});

const timed = async <T>(work: Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
};

const DRIVER_TEXT = /Mongo|ECONNREFUSED|topology|selection|\bat .+:\d+/i;

test('down: 503 on REST and GraphQL within the selection timeout; back: served again', async () => {
  expect((await call(server.url, 'GET', '/api/articles')).status).toBe(200);
  await database.stop();

  const rest = await timed(call(server.url, 'GET', '/api/articles'));
  expect(rest.value.status).toBe(503);
  expect(rest.value.body).toEqual({ data: null, error: { status: 503, name: 'ServiceUnavailableError', message: expect.any(String), details: {} } });
  expect(JSON.stringify(rest.value.body)).not.toMatch(DRIVER_TEXT);
  expect(rest.ms).toBeLessThan(3000);

  const write = await call(server.url, 'POST', '/api/tags', { body: { data: { name: 'lost?' } }, headers: server.asAdmin });
  expect(write.status).toBe(503);

  const graphql = await timed(server.gql('{ articles { documentId } }'));
  expect(graphql.value.status).toBe(503);
  expect(graphql.value.body.errors?.[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  expect(JSON.stringify(graphql.value.body)).not.toMatch(DRIVER_TEXT);
  expect(graphql.ms).toBeLessThan(3000);

  expect((await fetch(`${server.url}/_health`)).status).toBe(503);

  database = await startCongo(folder, database.port);
  await eventually(async () => (await call(server.url, 'GET', '/api/articles')).status === 200, 15_000);
  expect((await call(server.url, 'POST', '/api/tags', { body: { data: { name: 'after' } }, headers: server.asAdmin })).status).toBe(201);
}, 40_000);
