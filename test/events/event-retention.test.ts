import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { openEmbeddedStore } from '../../src/storage/embedded/create-embedded-store';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';
import { MONGODB_TEST_URL } from '../mongodb/server-kind';
import type { WebhookConfig } from '../../src/config/types';
import { createOutbox, type Outbox } from '../../src/events/outbox';
import { createEventRetention } from '../../src/events/event-retention';
import type { ContentEvent } from '../../src/events/event-payload';
import { eventually } from '../support/eventually';

/**
 * The outbox does not grow with every write for as long as the server runs: events older than the retention
 * whose deliveries all ended go, with those deliveries; those a delivery still waits on, or that were
 * dead-lettered, stay.
 */

const DAY = 86_400_000;
const hook: WebhookConfig = { name: 'site', url: 'http://127.0.0.1:9/hook', events: ['entry.create'], headers: {}, enabled: true, concurrency: 1, timeout: 1000, maxAttempts: 3 };
const event = (name: string): ContentEvent => ({ event: 'entry.create', uid: 'api::tag.tag', model: 'tag', entry: { id: 1, documentId: 'd', name } });

/** a store on each engine, and how to remove it */
const engines: Record<string, () => Promise<{ store: Store; destroy(): Promise<void> }>> = {
  embedded: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-retention-'));
    const store = openEmbeddedStore(dir);
    return { store, destroy: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
  },
  mongodb: async () => {
    const dbName = `folio_retention_${randomUUID().slice(0, 8)}`;
    const store = await openStore({ client: 'mongodb', uri: MONGODB_TEST_URL, options: { dbName, serverSelectionTimeoutMS: 5_000 } }, '');
    return {
      store,
      async destroy() {
        await store.close();
        const admin = await MongoClient.connect(MONGODB_TEST_URL);
        await admin.db(dbName).dropDatabase();
        await admin.close();
      },
    };
  },
};

describe.each(Object.keys(engines))('%s', (engine) => {
  let store: Store;
  let outbox: Outbox;
  let destroy: () => Promise<void>;

  beforeEach(async () => {
    ({ store, destroy } = await engines[engine]());
    outbox = createOutbox(store, () => [hook]);
    await outbox.ensureIndexes();
  });
  afterEach(() => destroy());

  /** records an event `age` ms ago and ends its delivery as `state` ('pending': left as recorded) */
  const recorded = async (name: string, age: number, state: 'delivered' | 'failed' | 'pending') => {
    const stored = await outbox.record(event(name), Date.now() - age);
    const [delivery] = await outbox.due(Date.now(), 1000).then((due) => due.filter((candidate) => candidate.eventId === stored.eventId));
    if (state !== 'pending') await outbox.settle(delivery, { state, attempts: 1 });
    return stored;
  };

  const names = async () => (await outbox.eventsAfter(0, 1000)).map((stored) => stored.entry.name);
  const deliveryStates = async () =>
    (await store.collection('folio_deliveries').find({})).map((row) => String(row.state)).sort();

  test('old events whose deliveries ended go with those deliveries; pending, dead-lettered and recent ones stay', async () => {
    await recorded('delivered long ago', 2 * DAY, 'delivered');
    await recorded('pending long ago', 2 * DAY, 'pending');
    await recorded('failed long ago', 2 * DAY, 'failed');
    await store.collection('folio_events').insertOne({ id: await store.nextSequence('folio_events'), eventId: 'no-deliveries', createdAt: new Date(Date.now() - 2 * DAY).toISOString(), ...event('no deliveries long ago') });
    await recorded('delivered just now', 0, 'delivered');

    expect(await outbox.prune(Date.now() - DAY, 100)).toEqual({ removed: 2, last: undefined });
    expect(await names()).toEqual(['pending long ago', 'failed long ago', 'delivered just now']);
    expect(await deliveryStates()).toEqual(['delivered', 'failed', 'pending']);
  });

  test('runs go on past the events kept for a retry, and reach the old ones behind them', async () => {
    for (let index = 0; index < 5; index++) await recorded(`failed ${index}`, 2 * DAY, 'failed');
    for (let index = 0; index < 3; index++) await recorded(`delivered ${index}`, 2 * DAY, 'delivered');
    await recorded('recent', 0, 'delivered');
    const retention = createEventRetention({ outbox, keep: DAY, interval: 5, batch: 2, batchesPerRun: 1, backlogDelay: 5 });
    retention.start();
    try {
      await eventually(async () => (await names()).length === 6);
    } finally {
      await retention.stop();
    }
    expect(await names()).toEqual(['failed 0', 'failed 1', 'failed 2', 'failed 3', 'failed 4', 'recent']);
    expect(await deliveryStates()).toEqual(['delivered', 'failed', 'failed', 'failed', 'failed', 'failed']);
  });
});
