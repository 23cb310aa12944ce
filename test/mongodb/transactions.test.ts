import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientSession, MongoClient } from 'mongodb';
import { mongodbDatabase, startTestServer, type TestServer } from '../support/test-server';
import { call } from '../auth/http';
import { startCongo, type CongoProcess } from './congo-process';
import { MONGODB_TEST_URL } from './server-kind';
import { subscribe } from '../support/sse-subscription';
import { eventually } from '../support/eventually';

/**
 * Writes that touch several documents run in the driver's withTransaction on a replica set, and plainly
 * where the server has no transactions. The replica set here is CongoDB presenting itself as one (it runs
 * a transaction's operations without atomicity): what this shows is that Folio's writes go through a
 * session and work end to end there; atomicity itself is the storage contract's, on a real server.
 */

let replicaSet: CongoProcess;
const servers: TestServer[] = [];
const transactions = jest.spyOn(ClientSession.prototype, 'withTransaction');

beforeAll(async () => {
  replicaSet = await startCongo('', 0, { replicaSet: 'rs0' });
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await replicaSet.stop();
  transactions.mockRestore();
});

const startOn = async (database: ReturnType<typeof mongodbDatabase>, config: Record<string, unknown> = {}) => {
  const server = await startTestServer({ config: { ...config, database } });
  servers.push(server);
  return server;
};

/** A published article with a category and tags: its draft and published versions, the tags' inverse side, the content event. */
const publishArticle = async (server: TestServer) => {
  const rest = (method: string, path: string, body?: unknown) => call<{ data: { documentId: string } }>(server.url, method, path, { body, headers: server.asAdmin });
  const category = (await rest('POST', '/api/categories', { data: { name: 'Sessions' } })).body.data.documentId;
  const tag = (await rest('POST', '/api/tags', { data: { name: 'atomic' } })).body.data.documentId;
  transactions.mockClear();
  const created = await rest('POST', '/api/articles?status=published', { data: { title: 'In one transaction', category, tags: [tag] } });
  expect(created.status).toBe(201);
  const read = await call<{ data: { title: string; category: { name: string }; tags: Array<{ name: string }> } }>(
    server.url,
    'GET',
    `/api/articles/${created.body.data.documentId}?populate[category]=true&populate[tags]=true`,
    { headers: server.asAdmin },
  );
  expect(read.body.data).toMatchObject({ title: 'In one transaction', category: { name: 'Sessions' }, tags: [{ name: 'atomic' }] });
  return transactions.mock.calls.length;
};

test('on a replica set, a write touching several documents runs in withTransaction and is read back whole', async () => {
  const server = await startOn({ ...mongodbDatabase(), uri: replicaSet.url });
  expect(await publishArticle(server)).toBe(1);
});

test("on the run's server, the same write runs in withTransaction only if it is a replica set (a standalone one has no transactions)", async () => {
  const client = await new MongoClient(MONGODB_TEST_URL).connect();
  const hello = await client.db('admin').command({ hello: 1 }).finally(() => client.close());
  const server = await startOn(mongodbDatabase());
  expect(await publishArticle(server)).toBe(typeof hello.setName === 'string' || hello.msg === 'isdbgrid' ? 1 : 0);
});

test('on a replica set, the work a write starts after it (webhook delivery, subscriptions) runs outside its finished transaction', async () => {
  const received: string[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push((JSON.parse(body) as { event: string }).event);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const hook = { name: 'site', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['entry.create'], secret: 'whsec-0123456789abcdef0123456789abcdef' };
    const server = await startOn({ ...mongodbDatabase(), uri: replicaSet.url }, { webhooks: [hook] });
    const stream = await subscribe(server, 'subscription { tagCreated { name } }', server.asAdmin);
    try {
      expect((await call(server.url, 'POST', '/api/tags', { body: { data: { name: 'after commit' } }, headers: server.asAdmin })).status).toBe(201);
      await eventually(() => received.length === 1 && stream.results.length === 1);
      expect(received).toEqual(['entry.create']);
      expect(stream.results[0].data).toEqual({ tagCreated: { name: 'after commit' } });
    } finally {
      stream.close();
    }
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
