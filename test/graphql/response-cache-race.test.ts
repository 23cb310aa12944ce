import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSchema, createYoga } from 'graphql-yoga';
import { loadModels } from '../../src/models/load-models';
import { createResponseCache } from '../../src/graphql/response-cache/response-cache';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';
import type { StoredEvent } from '../../src/events/outbox';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/**
 * An answer read before a write and finished after the write dropped the answers of its type holds what the
 * write changed: kept, it would be handed out until the next write or the ttl.
 */

let dataDir: string;
let store: Store;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-cache-race-'));
  store = await openStore({ client: 'embedded' }, dataDir);
});
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** a yoga server of one query, `articles`, answered by `articles`, through a response cache watching the store */
const serve = (articles: () => Promise<Array<{ documentId: string; title: string }>>) => {
  const cache = createResponseCache({ ttl: 60_000, max: 100 }, loadModels(EXAMPLE_SCHEMA));
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Article { documentId: ID! title: String } type Query { articles: [Article] }', resolvers: { Query: { articles } } }),
    context: () => ({ surface: 'graphql', principal: { grants: 'public' } }),
    plugins: [cache.plugin],
  });
  const titles = async () => {
    const response = await yoga.fetch('http://folio/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ articles { documentId title } }' }) });
    return ((await response.json()) as { data: { articles: Array<{ title: string }> } }).data.articles.map((article) => article.title);
  };
  return { cache, watched: cache.watch(store), titles };
};

test('an answer whose execution began before a write it finished after is not kept', async () => {
  let title = 'Before';
  let hold: { read: () => void; gate: Promise<void> } | undefined;
  const { watched, titles } = serve(async () => {
    const rows = [{ documentId: 'a1', title }];
    const held = hold;
    hold = undefined;
    if (held) {
      held.read();
      await held.gate;
    }
    return rows;
  });
  let open!: () => void;
  let read!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const wasRead = new Promise<void>((resolve) => (read = resolve));
  hold = { read, gate };
  const held = titles();
  await wasRead;
  title = 'After';
  await watched.collection('articles').insertOne({ id: 1, title: 'After' });
  open();
  expect(await held).toEqual(['Before']);
  expect(await titles()).toEqual(['After']);
  // with no write between, the next answer is kept
  title = 'Unseen';
  expect(await titles()).toEqual(['After']);
});

test('a write to one of the store’s own collections (webhook deliveries) during an execution does not keep its answer out', async () => {
  let runs = 0;
  let during: (() => Promise<unknown>) | undefined;
  const { watched, titles } = serve(async () => {
    runs += 1;
    const write = during;
    during = undefined;
    await write?.();
    return [{ documentId: 'a1', title: 'Kept' }];
  });
  during = () => watched.collection('folio_deliveries').insertOne({ id: 'd1', state: 'pending' });
  expect(await titles()).toEqual(['Kept']);
  expect(await titles()).toEqual(['Kept']);
  expect(runs).toBe(1);
});

/** a feed whose events the test hands out one by one (`push`), as the content events' poll would */
const handFedFeed = () => {
  const waiting: Array<(result: IteratorResult<StoredEvent>) => void> = [];
  const queued: StoredEvent[] = [];
  const stream: AsyncIterableIterator<StoredEvent> = {
    next: () => new Promise((resolve) => (queued.length > 0 ? resolve({ value: queued.shift()!, done: false }) : waiting.push(resolve))),
    return: async () => ({ value: undefined, done: true }),
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return {
    feed: { listen: async () => stream, readNow: async () => undefined },
    push: async (event: StoredEvent) => {
      const taker = waiting.shift();
      if (taker) taker({ value: event, done: false });
      else queued.push(event);
      // the follower drops answers in the microtasks after an event is handed out
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
};

test("the content events of this instance's own writes drop nothing: their answers went at the write; another instance's do", async () => {
  let runs = 0;
  const { cache, titles } = serve(async () => {
    runs += 1;
    return [{ documentId: 'a1', title: 'Kept' }];
  });
  const { feed, push } = handFedFeed();
  const event = (id: number, origin: string): StoredEvent => ({ id, eventId: `e${id}`, createdAt: new Date().toISOString(), origin, event: 'entry.create', uid: 'api::article.article', model: 'article', entry: {} });
  const followed = cache.follow(feed, (stored) => stored.origin === 'here');
  try {
    await titles();
    await push(event(1, 'here'));
    await titles();
    expect(runs).toBe(1);
    await push(event(2, 'elsewhere'));
    await titles();
    expect(runs).toBe(2);
  } finally {
    await followed.stop();
  }
});
