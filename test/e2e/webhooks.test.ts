import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startTestServer, defaultPlugins, withTestDatabase, FULL_ACCESS_TOKEN, type TestServer } from '../support/test-server';
import { startServerProcess, writeConfigFiles } from '../support/server-process';
import { restClient } from '../rest/rest-client';
import { eventually as waitFor } from '../support/eventually';

/** A webhook receiver on loopback: records what it gets, answers what `answer` says. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  payload: { event: string; createdAt: string; model: string; uid: string; entry: Record<string, unknown> };
}

const startReceiver = async (answer: (index: number) => number = () => 200) => {
  const received: Received[] = [];
  let count = 0;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const status = answer(count++);
      if (status < 300) received.push({ headers: request.headers, body, payload: JSON.parse(body) as Received['payload'] });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, port, received, attempts: () => count, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

const SECRET = 'whsec-0123456789abcdef0123456789abcdef';
const ENTRY_EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish'];

const verify = ({ headers, body }: Received) => {
  const [t, v1] = String(headers['folio-signature']).split(',').map((part) => part.split('=')[1]);
  return createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex') === v1 && Math.abs(Date.now() / 1000 - Number(t)) < 300;
};

describe('webhooks', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: TestServer;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ config: { webhooks: [{ name: 'site', url: receiver.url, events: ENTRY_EVENTS, secret: SECRET, headers: { 'X-Site': 'blog' } }] } });
  });
  afterAll(async () => {
    await server.stop();
    await receiver.stop();
  });

  test('create, update and delete reach the receiver in Strapi shape, signed, each event once', async () => {
    const api = restClient(server);
    const created = await api.create('/api/articles', { title: 'Hooked', views: 3 });
    await api.put(`/api/articles/${created.documentId}?status=draft`, { title: 'Hooked again' });
    await api.del(`/api/articles/${created.documentId}`);
    await waitFor(() => receiver.received.length >= 4);
    const events = receiver.received.map(({ payload }) => payload.event);
    expect(events.sort()).toEqual(['entry.create', 'entry.delete', 'entry.publish', 'entry.update']);
    const create = receiver.received.find(({ payload }) => payload.event === 'entry.create')!;
    expect(create.payload).toEqual({
      event: 'entry.create',
      createdAt: expect.any(String),
      model: 'article',
      uid: 'api::article.article',
      entry: expect.objectContaining({ id: expect.any(Number), documentId: created.documentId, title: 'Hooked', views: 3, locale: 'en' }),
    });
    expect(Object.keys(create.payload.entry).some((key) => key.startsWith('_'))).toBe(false);
    expect(receiver.received.find(({ payload }) => payload.event === 'entry.update')!.payload.entry).toMatchObject({ title: 'Hooked again' });
    for (const delivery of receiver.received) {
      expect(delivery.headers).toMatchObject({ 'content-type': 'application/json', 'x-site': 'blog', 'x-strapi-event': delivery.payload.event, 'folio-event-id': expect.any(String) });
      expect(verify(delivery)).toBe(true);
    }
    expect(new Set(receiver.received.map(({ headers }) => headers['folio-event-id'])).size).toBe(4);
  });

  test('a user signing up is an entry.create without password or tokens', async () => {
    const response = await fetch(`${server.url}/api/auth/local/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'hooky', email: 'hooky@example.com', password: 'correct-horse-battery' }),
    });
    expect(response.status).toBe(200);
    await waitFor(() => receiver.received.some(({ payload }) => payload.uid === 'plugin::users-permissions.user'));
    const { entry } = receiver.received.find(({ payload }) => payload.uid === 'plugin::users-permissions.user')!.payload;
    expect(entry).toMatchObject({ username: 'hooky', email: 'hooky@example.com' });
    expect(entry).not.toHaveProperty('password');
    expect(entry).not.toHaveProperty('resetPasswordToken');
    expect(entry).not.toHaveProperty('confirmationToken');
  });
});

describe('delivery', () => {
  test('a receiver down for the first attempts gets the event later', async () => {
    const receiver = await startReceiver((index) => (index < 2 ? 503 : 200));
    const server = await startTestServer({ config: { webhooks: [{ name: 'flaky', url: receiver.url, events: ['entry.create'] }] } });
    try {
      const created = await restClient(server).create('/api/categories', { name: 'Later' });
      await waitFor(() => receiver.received.length === 1, 10_000);
      expect(receiver.attempts()).toBe(3);
      expect(receiver.received[0].headers['folio-delivery-attempt']).toBe('3');
      expect(receiver.received[0].payload.entry).toMatchObject({ documentId: created.documentId, name: 'Later' });
      expect(receiver.received[0].headers).not.toHaveProperty('folio-signature');
    } finally {
      await server.stop();
      await receiver.stop();
    }
  });

  test('after maxAttempts a delivery is dead-lettered; retry sends it again', async () => {
    let up = false;
    const receiver = await startReceiver(() => (up ? 200 : 500));
    const server = await startTestServer({ config: { webhooks: [{ name: 'down', url: receiver.url, events: ['entry.create'], maxAttempts: 1 }] } });
    try {
      await restClient(server).create('/api/categories', { name: 'Dead letter' });
      const { outbox } = server.folio.events;
      await waitFor(async () => (await outbox.failed('down')).length === 1);
      expect((await outbox.failed('down'))[0]).toMatchObject({ webhook: 'down', attempts: 1, lastError: 'HTTP 500' });
      up = true;
      expect(await outbox.retryFailed('down')).toBe(1);
      server.folio.events.nudge();
      await waitFor(() => receiver.received.length === 1);
      expect(await outbox.failed()).toEqual([]);
    } finally {
      await server.stop();
      await receiver.stop();
    }
  });

  test('an acknowledged change survives kill -9 before delivery and is delivered after restart', async () => {
    const root = mkdtempSync(join(tmpdir(), 'folio-webhook-kill-'));
    const configDir = join(root, 'config');
    const dataDir = join(root, 'data');
    mkdirSync(configDir);
    const receiver = await startReceiver();
    await receiver.stop(); // its port now refuses connections: every attempt before the kill fails
    // one database for both lives of the server (on MongoDB runs, a database of its own)
    const base = withTestDatabase({ plugins: defaultPlugins(), admin: { apiTokens: [{ name: 'admin', type: 'full-access', accessKey: FULL_ACCESS_TOKEN }] } });
    // a short timeout keeps the lease short: the kill may land while the first attempt holds it
    const writeConfig = (url: string) => writeConfigFiles(configDir, { ...base, webhooks: [{ name: 'site', url, events: ['entry.create'], timeout: 1000 }] });
    writeConfig(receiver.url);
    const startProcess = () => startServerProcess({ configDir, dataDir });
    const first = await startProcess();
    const response = await fetch(`${first.url}/api/categories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${FULL_ACCESS_TOKEN}` },
      body: JSON.stringify({ data: { name: 'Survivor' } }),
    });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: { documentId: string } };
    await first.stop('SIGKILL');

    const live = await startReceiver();
    writeConfig(live.url);
    const second = await startProcess();
    try {
      await waitFor(() => live.received.length === 1, 20_000);
      expect(live.received[0].payload).toMatchObject({ event: 'entry.create', entry: { documentId: data.documentId, name: 'Survivor' } });
    } finally {
      await second.stop();
      await live.stop();
    }
  }, 45_000);
});
