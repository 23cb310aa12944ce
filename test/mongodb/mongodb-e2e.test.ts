import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { mongodbDatabase, startTestServer, type TestServer } from '../support/test-server';
import { uploadTestConfig, uploaded, request, type FileRecord } from '../upload/upload-server';
import { call } from '../auth/http';
import { writeConfigFiles } from '../support/server-process';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';
import { exportStore } from '../../src/transfer/export-store';
import { importStore } from '../../src/transfer/import-store';

const execFileAsync = promisify(execFile);

/**
 * Folio end to end on MongoDB (the run's server: a real one with MONGODB_URL, else the in-process
 * one): REST, GraphQL, sign-up and sign-in, media, and an export taken into another engine and
 * back. The data folder does not exist: on MongoDB nothing needs it but uploaded files.
 */

let server: TestServer;
const database = mongodbDatabase();

beforeAll(async () => {
  server = await startTestServer({ config: { ...uploadTestConfig({ provider: 'gridfs' }), database } });
});
afterAll(() => server.stop());

interface Article {
  documentId: string;
  title: string;
  views: number;
  category?: { name: string } | null;
  tags?: Array<{ name: string }>;
}

const rest = <T>(method: string, path: string, body?: unknown) => call<T>(server.url, method, path, { body, headers: server.asAdmin });

describe('content on both surfaces', () => {
  let category: string;
  beforeAll(async () => {
    category = (await rest<{ data: { documentId: string } }>('POST', '/api/categories', { data: { name: 'Databases' } })).body.data.documentId;
    const tags = [];
    for (const name of ['mongo', 'wire']) tags.push((await rest<{ data: { documentId: string } }>('POST', '/api/tags', { data: { name } })).body.data.documentId);
    for (let index = 0; index < 12; index += 1) {
      const created = await rest('POST', '/api/articles?status=published', { data: { title: `Article ${String(index).padStart(2, '0')}`, views: index, category, tags: index % 2 === 0 ? tags : [] } });
      expect(created.status).toBe(201);
    }
  });

  test('REST: filters, sort, pagination with its counts, populate', async () => {
    const answer = await rest<{ data: Article[]; meta: { pagination: Record<string, number> } }>(
      'GET',
      '/api/articles?filters[views][$gte]=4&sort=views:desc&pagination[page]=2&pagination[pageSize]=3&populate[category]=true&populate[tags]=true',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((article) => article.views)).toEqual([8, 7, 6]);
    expect(answer.body.meta.pagination).toEqual({ page: 2, pageSize: 3, pageCount: 3, total: 8 });
    expect(answer.body.data[0]).toMatchObject({ category: { name: 'Databases' }, tags: [{ name: 'mongo' }, { name: 'wire' }] });
  });

  test('GraphQL: a connection with filters on a relation, and its total', async () => {
    const result = await server.gql<{ articles_connection: { nodes: Article[]; pageInfo: { total: number } } }>(
      '{ articles_connection(filters: { tags: { name: { eq: "wire" } }, title: { containsi: "article 1" } }, sort: "views:asc") { nodes { title tags { name } } pageInfo { total } } }',
      undefined,
      server.asAdmin,
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data!.articles_connection).toEqual({
      nodes: [{ title: 'Article 10', tags: [{ name: 'mongo' }, { name: 'wire' }] }],
      pageInfo: { total: 1 },
    });
  });

  test('update, draft and publish, delete', async () => {
    const { documentId } = (await rest<{ data: Article }>('POST', '/api/articles?status=draft', { data: { title: 'Draft only' } })).body.data;
    expect((await call(server.url, 'GET', `/api/articles/${documentId}`)).status).toBe(404);
    expect((await rest('PUT', `/api/articles/${documentId}?status=published`, { data: { title: 'Now public' } })).status).toBe(200);
    expect((await call<{ data: Article }>(server.url, 'GET', `/api/articles/${documentId}`)).body.data.title).toBe('Now public');
    expect((await rest('DELETE', `/api/articles/${documentId}`)).status).toBe(204);
    expect((await call(server.url, 'GET', `/api/articles/${documentId}`)).status).toBe(404);
  });
});

test('sign-up, sign-in and me', async () => {
  const registered = await call<{ jwt: string }>(server.url, 'POST', '/api/auth/local/register', { body: { username: 'mona', email: 'mona@example.com', password: 'Passw0rd!' } });
  expect(registered.status).toBe(200);
  const login = await call<{ jwt: string }>(server.url, 'POST', '/api/auth/local', { body: { identifier: 'mona@example.com', password: 'Passw0rd!' } });
  expect(login.status).toBe(200);
  const me = await call<{ username: string }>(server.url, 'GET', '/api/users/me', { headers: { authorization: `Bearer ${login.body.jwt}` } });
  expect(me.body).toMatchObject({ username: 'mona' });
});

test('media: an upload is listed, linked and served', async () => {
  const [file] = await uploaded(server, [{ name: 'notes.txt', content: 'stored beside a MongoDB', type: 'text/plain' }]);
  const listed = await request<FileRecord[]>(server, '/api/upload/files', { headers: server.asAdmin });
  expect(listed.body.map((record) => record.id)).toContain(file.id);
  const served = await fetch(`${server.url}${file.url}`);
  expect(await served.text()).toBe('stored beside a MongoDB');
});

test('an export of the MongoDB data goes into the embedded engine and back into MongoDB unchanged', async () => {
  const exportText = async (store: Store) => {
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    await exportStore(store, output);
    output.end();
    return Buffer.concat(chunks).toString('utf8');
  };
  const importText = (store: Store, text: string) => importStore(store, PassThrough.from([text]));
  const original = await exportText(server.folio.services.store);
  const dir = mkdtempSync(join(tmpdir(), 'folio-mongo-transfer-'));
  const embedded = await openStore({ client: 'embedded' }, dir);
  const mongo = await openStore(mongodbDatabase(), '');
  try {
    await importText(embedded, original);
    await importText(mongo, await exportText(embedded));
    const roundTrip = await exportText(mongo);
    const lines = (text: string) => text.split('\n').filter((line) => line !== '' && !line.includes('"exportedAt"')).sort();
    expect(lines(roundTrip)).toEqual(lines(original));
    expect(lines(original).length).toBeGreaterThan(20);
  } finally {
    await embedded.close();
    await mongo.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('folio token create on MongoDB needs no data folder, and its token opens the server', async () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-mongo-cli-'));
  const configDir = join(root, 'config');
  mkdirSync(configDir);
  writeConfigFiles(configDir, { database });
  try {
    // asynchronously: a synchronous spawn would stall the in-process server while its idle keep-alive sockets expire
    const created = await execFileAsync(
      process.execPath,
      ['-r', require.resolve('../support/register-ts.js'), require.resolve('../../src/cli/run.ts'), 'token', 'create', '--name', 'cli-made', '--type', 'read-only', '--config', configDir, '--data', join(root, 'no-such-folder')],
      { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test' } },
    );
    expect(created.stderr).not.toMatch(/ENOENT|Error/);
    const key = created.stdout.trim();
    const answer = await call(server.url, 'GET', '/api/articles', { headers: { authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(200);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
