import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../support/test-server';
import { restClient, type RestClient } from '../rest/rest-client';
import { eventually } from '../support/eventually';
import { subscribe } from '../support/sse-subscription';

/**
 * GraphQL subscriptions over Server-Sent Events (graphql-yoga's transport): a client POSTs the
 * subscription with `Accept: text/event-stream` and reads `event: next` messages.
 */

let server: TestServer;
let api: RestClient;
let tech: string;
const tokens = () => server.folio.services.credentials.tokens;
const articleType = () => server.folio.services.models.contentTypes.get('api::article.article')!;

beforeAll(async () => {
  server = await startTestServer();
  api = restClient(server);
  tech = (await api.create('/api/categories', { name: 'Tech' })).documentId;
});
afterAll(() => server.stop());

describe('subscriptions over SSE', () => {
  test('created: filtered by the list filters, resolved through the normal resolvers (relations included)', async () => {
    const stream = await subscribe(server, 'subscription { articleCreated(filters: { title: { contains: "news" } }) { documentId title category { name } } }');
    try {
      expect(stream.status).toBe(200);
      await api.create('/api/articles', { title: 'Not for you' });
      const news = await api.create('/api/articles', { title: 'Big news', category: tech });
      await eventually(() => stream.results.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stream.results).toEqual([{ data: { articleCreated: { documentId: news.documentId, title: 'Big news', category: { name: 'Tech' } } } }]);
    } finally {
      stream.close();
    }
  });

  test('updated, published and deleted', async () => {
    const article = await api.create('/api/articles', { title: 'Lifecycle' });
    const updated = await subscribe(server, `subscription { articleUpdated(filters: { documentId: { eq: "${article.documentId}" } }) { title publishedAt } }`);
    const published = await subscribe(server, 'subscription { articlePublished { documentId title } }');
    const deleted = await subscribe(server, 'subscription { articleDeleted { documentId title } }');
    try {
      // each event is the document as it is when the event is read: the next write waits for it
      await api.put(`/api/articles/${article.documentId}?status=draft`, { title: 'Lifecycle, edited' });
      await eventually(() => updated.results.length === 1);
      await api.put(`/api/articles/${article.documentId}`, { title: 'Lifecycle, published' });
      await eventually(() => updated.results.length === 2 && published.results.length === 1);
      await api.del(`/api/articles/${article.documentId}`);
      await eventually(() => deleted.results.length === 1);
      expect(updated.results.map((result) => result.data?.articleUpdated)).toEqual([
        { title: 'Lifecycle, edited', publishedAt: null },
        { title: 'Lifecycle, published', publishedAt: null },
      ]);
      expect(published.results[0].data?.articlePublished).toEqual({ documentId: article.documentId, title: 'Lifecycle, published' });
      expect(deleted.results[0].data?.articleDeleted).toEqual({ documentId: article.documentId, title: 'Lifecycle, published' });
    } finally {
      for (const stream of [updated, published, deleted]) stream.close();
    }
  });

  test('an update read after its document was deleted is still sent, as the document was', async () => {
    const article = await api.create('/api/articles', { title: 'Short-lived' });
    const updated = await subscribe(server, 'subscription { articleUpdated(filters: { title: { contains: "Short" } }) { documentId title } }');
    try {
      // the update and the deletion one after the other, before the feed reads the update (no listener waits in between)
      await server.folio.services.store.transaction(async () => {
        await server.folio.services.documents.update(articleType(), article.documentId, { title: 'Short-lived, edited' }, { status: 'draft', locale: 'en' });
        await server.folio.services.documents.remove(articleType(), article.documentId, 'en');
      });
      await eventually(() => updated.results.length === 1);
      expect(updated.results[0].data?.articleUpdated).toEqual({ documentId: article.documentId, title: 'Short-lived, edited' });
    } finally {
      updated.close();
    }
  });

  test('an update read after its document was deleted is not sent to filters on relations, which its entry cannot be matched on', async () => {
    const sentinel = (await api.create('/api/articles', { title: 'Sentinel' })).documentId;
    const article = await api.create('/api/articles', { title: 'In Tech', category: tech });
    const outside = await subscribe(server, 'subscription { articleUpdated(filters: { not: { category: { name: { eq: "Tech" } } } }) { title } }');
    const unnamed = await subscribe(server, 'subscription { articleUpdated(filters: { category: { name: { null: true } } }) { title } }');
    try {
      await server.folio.services.store.transaction(async () => {
        await server.folio.services.documents.update(articleType(), article.documentId, { title: 'In Tech, edited' }, { status: 'draft', locale: 'en' });
        await server.folio.services.documents.remove(articleType(), article.documentId, 'en');
      });
      // an article without a category, updated after: once its event has come, the one before it was read
      await api.put(`/api/articles/${sentinel}?status=draft`, { title: 'Sentinel, edited' });
      await eventually(() => outside.results.length >= 1 && unnamed.results.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const stream of [outside, unnamed]) expect(stream.results.map((result) => result.data?.articleUpdated)).toEqual([{ title: 'Sentinel, edited' }]);
    } finally {
      outside.close();
      unnamed.close();
    }
  });

  test("permissions: a subscriber without the type's find permission is refused before anything streams", async () => {
    const tagReader = await tokens().create({ name: 'tag-reader', type: 'custom', permissions: ['api::tag.tag.find'] });
    const stream = await subscribe(server, 'subscription { articleCreated { title } }', { authorization: `Bearer ${tagReader.accessKey}` });
    try {
      await eventually(() => stream.results.length === 1);
      expect(stream.results[0]).toEqual({ data: null, errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })] });
    } finally {
      stream.close();
    }
  });

  test('permissions are checked again per event: a revoked token loses the stream', async () => {
    const issued = await tokens().create({ name: 'short-lived', type: 'custom', permissions: ['api::tag.tag.find'] });
    const stream = await subscribe(server, 'subscription { tagCreated { name } }', { authorization: `Bearer ${issued.accessKey}` });
    try {
      await api.create('/api/tags', { name: 'seen' });
      await eventually(() => stream.results.length === 1);
      expect(stream.results[0].data).toEqual({ tagCreated: { name: 'seen' } });
      await tokens().revoke('short-lived');
      await api.create('/api/tags', { name: 'unseen' });
      await eventually(() => stream.results.length === 2);
      expect(stream.results[1]).toMatchObject({ errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })] });
    } finally {
      stream.close();
    }
  });
});

describe('subscriptions over WebSocket (graphql-ws)', () => {
  const wsClient = (connectionParams: Record<string, unknown> = {}) =>
    createClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });

  const collect = (client: Client, query: string) => {
    const results: Array<{ data?: unknown; errors?: unknown }> = [];
    let failure: unknown;
    const stop = client.subscribe({ query }, { next: (value) => void results.push(value), error: (error) => void (failure = error), complete: () => undefined });
    return { results, stop, failure: () => failure };
  };

  test('created events, filtered, with credentials from connectionParams', async () => {
    const issued = await tokens().create({ name: 'ws-reader', type: 'custom', permissions: ['api::category.category.find'] });
    const client = wsClient({ Authorization: `Bearer ${issued.accessKey}` });
    try {
      const stream = collect(client, 'subscription { categoryCreated(filters: { name: { startsWith: "ws" } }) { name } }');
      await new Promise((resolve) => setTimeout(resolve, 200));
      await api.create('/api/categories', { name: 'other' });
      await api.create('/api/categories', { name: 'ws category' });
      await eventually(() => stream.results.length === 1);
      expect(stream.results).toEqual([{ data: { categoryCreated: { name: 'ws category' } } }]);
      stream.stop();
    } finally {
      await client.dispose();
    }
  });

  test('an upgrade to another path than the GraphQL endpoint is refused with 400, as ws refuses it', async () => {
    const refused = await new Promise<number | undefined>((resolve, reject) => {
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/articles`);
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode));
      socket.once('open', () => reject(new Error('opened')));
      socket.once('error', () => undefined);
    });
    expect(refused).toBe(400);
  });

  test('refused operations: forbidden type, over the depth limit, malformed', async () => {
    const issued = await tokens().create({ name: 'ws-narrow', type: 'custom', permissions: ['api::tag.tag.find'] });
    const client = wsClient({ authorization: `Bearer ${issued.accessKey}` });
    try {
      const forbidden = collect(client, 'subscription { articleCreated { title } }');
      const malformed = collect(client, 'subscription { tagCreated { name }');
      const deep = collect(client, `subscription { tagCreated { ${'articles { tags { '.repeat(6)}name${' } }'.repeat(6)} } }`);
      await eventually(() => forbidden.results.length + (forbidden.failure() ? 1 : 0) > 0 && malformed.failure() !== undefined && deep.failure() !== undefined);
      expect(JSON.stringify(forbidden.results[0] ?? forbidden.failure())).toContain('FORBIDDEN');
      expect(JSON.stringify(malformed.failure())).toContain('Syntax Error');
      expect(JSON.stringify(deep.failure())).toContain('maximum operation depth');
    } finally {
      await client.dispose();
    }
  });

  test('one client holds at most 100 subscriptions, over any number of connections; a finished one frees its place', async () => {
    const issued = await tokens().create({ name: 'ws-many', type: 'custom', permissions: ['api::tag.tag.find'] });
    const clients = [0, 1, 2].map(() => wsClient({ Authorization: `Bearer ${issued.accessKey}` }));
    try {
      const listening = () => server.folio.services.events.listenerCount();
      const before = listening();
      const streams = Array.from({ length: 100 }, (_, index) => collect(clients[Math.floor(index / 50)], 'subscription { tagCreated { name } }'));
      await eventually(() => listening() === before + 100);
      const over = collect(clients[2], 'subscription { tagCreated { name } }');
      await eventually(() => over.results.length > 0 || over.failure() !== undefined);
      expect(JSON.stringify(over.results[0] ?? over.failure())).toContain('LIMIT_EXCEEDED');
      expect(streams.every((stream) => stream.failure() === undefined && stream.results.length === 0)).toBe(true);
      streams[0].stop();
      await eventually(() => listening() === before + 99);
      const again = collect(clients[2], 'subscription { tagCreated { name } }');
      await eventually(() => listening() === before + 100);
      await api.create('/api/tags', { name: 'for everyone' });
      await eventually(() => again.results.length === 1);
      expect(again.results[0]).toEqual({ data: { tagCreated: { name: 'for everyone' } } });
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
    }
  });
});
