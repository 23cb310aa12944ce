import { randomUUID } from 'node:crypto';
import type { Filter, Store, StoredDocument } from '../storage/types';
import type { WebhookConfig } from '../config/types';
import type { ContentEvent } from './event-payload';

/**
 * The durable outbox of content events. `record` runs inside the write's transaction, so an
 * acknowledged change has its event and one pending delivery per subscribed webhook on disk;
 * workers then claim deliveries with a lease (an update conditioned on the lease being free, which
 * only one instance wins on a shared MongoDB), send them, and mark them delivered, due again later,
 * or failed (dead-lettered) after the webhook's `maxAttempts`.
 */

const EVENTS_COLLECTION = 'folio_events';
const DELIVERIES_COLLECTION = 'folio_deliveries';

export interface StoredEvent extends ContentEvent {
  /** increasing, for readers that follow the stream (subscriptions) */
  id: number;
  eventId: string;
  createdAt: string;
  /** the outbox (the instance) that recorded it: a follower skips what its own instance wrote (response-cache) */
  origin?: string;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  /** `<eventId>/<webhook>`: unique without a sequence, so a write pays no counter per webhook (older outboxes hold numbers) */
  id: string | number;
  eventId: string;
  webhook: string;
  state: DeliveryState;
  attempts: number;
  /** epoch ms */
  dueAt: number;
  /** epoch ms until which one worker owns it; 0 when free */
  leaseUntil: number;
  lastError: string | null;
}

const asEvent = (row: StoredDocument): StoredEvent => row as unknown as StoredEvent;
const asDelivery = (row: StoredDocument): Delivery => row as unknown as Delivery;

export const createOutbox = (store: Store, webhooks: () => readonly WebhookConfig[]) => {
  const events = () => store.collection(EVENTS_COLLECTION);
  const deliveries = () => store.collection(DELIVERIES_COLLECTION);
  const origin = randomUUID();

  const ensureIndexes = async () => {
    await events().createIndex({ keys: [['id', 1]], unique: true });
    await events().createIndex({ keys: [['eventId', 1]] });
    await deliveries().createIndex({ keys: [['id', 1]], unique: true });
    await deliveries().createIndex({ keys: [['state', 1], ['dueAt', 1]] });
    await deliveries().createIndex({ keys: [['eventId', 1]] });
  };

  /** Inside the change's transaction. */
  const record = async (event: ContentEvent, now = Date.now()): Promise<StoredEvent> => {
    const stored: StoredEvent = { ...event, id: await store.nextSequence(EVENTS_COLLECTION), eventId: randomUUID(), createdAt: new Date(now).toISOString(), origin };
    await events().insertOne(stored as unknown as StoredDocument);
    const pending = webhooks()
      .filter((webhook) => webhook.enabled && webhook.events.includes(event.event))
      .map((webhook): Delivery => ({ id: `${stored.eventId}/${webhook.name}`, eventId: stored.eventId, webhook: webhook.name, state: 'pending', attempts: 0, dueAt: now, leaseUntil: 0, lastError: null }));
    if (pending.length > 0) await deliveries().insertMany(pending as unknown as StoredDocument[]);
    return stored;
  };

  const due = async (now: number, limit: number): Promise<Delivery[]> =>
    (await deliveries().find({ state: 'pending', dueAt: { $lte: now }, leaseUntil: { $lt: now } }, { sort: [['dueAt', 1], ['id', 1]], limit })).map(asDelivery);

  /** True when this caller now owns the delivery until `until`. */
  const claim = async (delivery: Delivery, now: number, until: number): Promise<boolean> =>
    (await deliveries().updateOne({ id: delivery.id, state: 'pending', leaseUntil: { $lt: now } }, { $set: { leaseUntil: until } })) === 1;

  const settle = (delivery: Delivery, fields: Partial<Delivery>) => deliveries().updateOne({ id: delivery.id }, { $set: { ...fields, leaseUntil: 0 } as StoredDocument });

  const eventOf = async (eventId: string): Promise<StoredEvent | null> => {
    const row = await events().findOne({ eventId });
    return row ? asEvent(row) : null;
  };

  /** Events after `afterId`, oldest first: what a follower of the stream has not seen yet. */
  const eventsAfter = async (afterId: number, limit: number): Promise<StoredEvent[]> =>
    (await events().find({ id: { $gt: afterId } }, { sort: [['id', 1]], limit })).map(asEvent);

  const lastEventId = async (): Promise<number> => {
    const last = await events().findOne({}, { sort: [['id', -1]], projection: ['id'] });
    return last ? Number(last.id) : 0;
  };

  const failed = async (webhook?: string): Promise<Delivery[]> => {
    const filter: Filter = { state: 'failed' };
    if (webhook !== undefined) filter.webhook = webhook;
    return (await deliveries().find(filter, { sort: [['id', 1]] })).map(asDelivery);
  };

  /** Failed deliveries (of one webhook, or all) become due again now, with a fresh count of attempts. */
  const retryFailed = async (webhook?: string, now = Date.now()): Promise<number> => {
    const filter: Filter = { state: 'failed' };
    if (webhook !== undefined) filter.webhook = webhook;
    return deliveries().updateMany(filter, { $set: { state: 'pending', attempts: 0, dueAt: now, leaseUntil: 0 } });
  };

  /**
   * Removes events created before `before` (epoch ms) whose deliveries all ended delivered (or that had none),
   * with those deliveries, looking at up to `limit` events after id `afterId`, oldest first: how many went,
   * and the last id looked at (undefined once no event after `afterId` is that old). An event still pending or
   * dead-lettered stays, for its next attempt or `folio webhook retry`. Deliveries go first: cut short between
   * the two, a later call finds the event again, never a delivery without its event.
   */
  const prune = async (before: number, limit: number, afterId = 0): Promise<{ removed: number; last: number | undefined }> => {
    const cutoff = new Date(before).toISOString();
    const batch = (await events().find({ id: { $gt: afterId } }, { sort: [['id', 1]], limit, projection: ['id', 'eventId', 'createdAt'] })).map(asEvent);
    // ids follow creation closely: the first event young enough ends the look
    const young = batch.findIndex((event) => event.createdAt >= cutoff);
    const old = young === -1 ? batch : batch.slice(0, young);
    if (old.length === 0) return { removed: 0, last: undefined };
    const eventIds = old.map((event) => event.eventId);
    const open = await deliveries().find({ eventId: { $in: eventIds }, state: { $ne: 'delivered' } }, { projection: ['eventId'] });
    const kept = new Set(open.map((delivery) => asDelivery(delivery).eventId));
    const ended = eventIds.filter((eventId) => !kept.has(eventId));
    const last = young === -1 && batch.length === limit ? old[old.length - 1].id : undefined;
    if (ended.length === 0) return { removed: 0, last };
    await deliveries().deleteMany({ eventId: { $in: ended }, state: 'delivered' });
    return { removed: await events().deleteMany({ eventId: { $in: ended } }), last };
  };

  /** whether this outbox recorded `event` */
  const recordedHere = (event: StoredEvent): boolean => event.origin === origin;

  return { ensureIndexes, record, recordedHere, due, claim, settle, eventOf, eventsAfter, lastEventId, failed, retryFailed, prune };
};

export type Outbox = ReturnType<typeof createOutbox>;
