import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../src/storage/embedded/create-embedded-store';
import type { Store, StoredDocument } from '../../src/storage/types';
import { createOutbox } from '../../src/events/outbox';
import { createEventFeed, SlowConsumerError, TooManySubscriptionsError } from '../../src/events/event-feed';
import { createWebhookWorker } from '../../src/events/webhook-worker';
import { retryDelay, signatureOf } from '../../src/events/webhook-request';
import type { ContentEvent } from '../../src/events/event-payload';
import { eventually } from '../support/eventually';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'folio-feed-'));
  store = openEmbeddedStore(dir);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const event = (title: string): ContentEvent => ({ event: 'entry.create', uid: 'api::tag.tag', model: 'tag', entry: { id: 1, documentId: 'd', name: title } });

describe('event feed', () => {
  test('a listener gets the events recorded after it started, in order, and only those it accepts', async () => {
    const outbox = createOutbox(store, () => []);
    await outbox.record(event('before'));
    const feed = createEventFeed({ outbox, pollInterval: 10 });
    const stream = await feed.listen((candidate) => candidate.entry.name !== 'skipped');
    const first = stream.next();
    await outbox.record(event('one'));
    await outbox.record(event('skipped'));
    await outbox.record(event('two'));
    expect((await first).value.entry.name).toBe('one');
    expect((await stream.next()).value.entry.name).toBe('two');
    await stream.return!();
    expect(feed.listenerCount()).toBe(0);
    feed.stop();
  });

  test('an event that commits after one with a higher id is still handed out, once, and nothing twice', async () => {
    const outbox = createOutbox(store, () => []);
    const feed = createEventFeed({ outbox, pollInterval: 10 });
    const stream = await feed.listen(() => true);
    // a write took its id, and another write (here or on another instance) committed a later one first
    const slowId = await store.nextSequence('folio_events');
    await outbox.record(event('fast'));
    expect((await stream.next()).value.entry.name).toBe('fast');
    const late = { ...event('slow'), id: slowId, eventId: 'slow-event', createdAt: new Date().toISOString() };
    await store.collection('folio_events').insertOne(late as unknown as StoredDocument);
    expect((await stream.next()).value).toMatchObject({ id: slowId, entry: { name: 'slow' } });
    await outbox.record(event('next'));
    expect((await stream.next()).value.entry.name).toBe('next');
    await stream.return!();
    feed.stop();
  });

  test('a listener that falls maxQueue events behind is dropped, not buffered without bound', async () => {
    const outbox = createOutbox(store, () => []);
    const feed = createEventFeed({ outbox, pollInterval: 10, maxQueue: 3 });
    const stream = await feed.listen(() => true);
    for (const title of ['a', 'b', 'c', 'd', 'e']) await outbox.record(event(title));
    feed.nudge();
    // nothing consumed yet: the fourth event finds the queue full and drops the listener
    await eventually(() => feed.listenerCount() === 0);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const item of stream) seen.push(String(item.entry.name));
      })(),
    ).rejects.toBeInstanceOf(SlowConsumerError);
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(feed.listenerCount()).toBe(0);
    feed.stop();
  });
});

test('an owner holds at most maxPerOwner listeners; a returned one frees its place at once', async () => {
  const outbox = createOutbox(store, () => []);
  const feed = createEventFeed({ outbox, pollInterval: 10, maxPerOwner: 2 });
  const first = await feed.listen(() => true, 'user:1');
  await feed.listen(() => true, 'user:1');
  await expect(feed.listen(() => true, 'user:1')).rejects.toBeInstanceOf(TooManySubscriptionsError);
  await feed.listen(() => true, 'user:2');
  const waiting = first.next();
  await first.return!();
  expect(await waiting).toEqual({ done: true, value: undefined });
  await feed.listen(() => true, 'user:1');
  expect(feed.listenerCount()).toBe(3);
  feed.stop();
});

describe('webhook requests', () => {
  test('the signature is the HMAC-SHA256 of "<t>.<body>", with its timestamp', () => {
    expect(signatureOf('secret', 1700000000, '{"a":1}')).toBe('t=1700000000,v1=49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686');
  });

  test('retries back off exponentially with full jitter, capped at 5 minutes', () => {
    expect(retryDelay(1, () => 0.999)).toBeLessThan(1000);
    expect(retryDelay(4, () => 0.999)).toBeGreaterThan(7000);
    expect(retryDelay(4, () => 0.999)).toBeLessThan(8000);
    expect(retryDelay(30, () => 0.999)).toBeLessThan(300_000);
    expect(retryDelay(3, () => 0)).toBe(0);
  });
});

describe('stopping', () => {
  // the outbox is read on a reader thread, which the store's close stops: a stop must wait for the read under way
  const expectCleanClose = async (stop: () => Promise<void>, logged: string[]): Promise<void> => {
    await stop();
    await store.close();
    // a read the close cut is logged once its rejection has gone round
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged).toEqual([]);
  };

  test('the webhook worker waits for its poll under way, so that closing the store next cuts nothing', async () => {
    const logged: string[] = [];
    const outbox = createOutbox(store, () => []);
    await outbox.ensureIndexes();
    const worker = createWebhookWorker({ outbox, webhooks: () => [], pollInterval: 10, log: (line) => logged.push(line) });
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expectCleanClose(() => worker.stop(), logged);
  });

  test('the event feed waits for its read under way, so that closing the store next cuts nothing', async () => {
    const logged: string[] = [];
    const outbox = createOutbox(store, () => []);
    await outbox.record(event('before'));
    const feed = createEventFeed({ outbox, pollInterval: 60_000, log: (line) => logged.push(line) });
    await feed.listen(() => true);
    // thousands of events: the feed reads them in batches, one reader thread's answer after another
    const first = (await store.nextSequence('folio_events')) + 1;
    const events = Array.from({ length: 4000 }, (_, index) => ({ ...event(`bulk ${index}`), id: first + index, eventId: `bulk-${index}`, createdAt: new Date().toISOString() }));
    await store.collection('folio_events').insertMany(events as unknown as StoredDocument[]);
    feed.nudge();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expectCleanClose(() => feed.stop(), logged);
  });
});
