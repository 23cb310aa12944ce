import type { FolioConfig } from '../config/types';
import type { Models } from '../models/types';
import type { Store } from '../storage/types';
import type { DocumentChange } from '../documents/document-service';
import { createEventPayloads, emitsEvents } from './event-payload';
import { createOutbox } from './outbox';
import { createWebhookWorker } from './webhook-worker';
import { createEventFeed } from './event-feed';

/**
 * Content events: every change of a content-type (or of a user) is written to the outbox in the
 * change's own transaction, then delivered to the configured webhooks by the worker and to
 * GraphQL subscriptions by the feed.
 */

export interface ContentEventsOptions {
  models: Models;
  config: FolioConfig;
  store: Store;
  /** ms between outbox polls (the worker is also woken by each write). @default 1000 */
  pollInterval?: number;
}

export const createContentEvents = ({ models, config, store, pollInterval }: ContentEventsOptions) => {
  const webhooks = () => config.webhooks;
  const outbox = createOutbox(store, webhooks);
  const payloadOf = createEventPayloads(models);
  const worker = createWebhookWorker({ outbox, webhooks, pollInterval });
  const feed = createEventFeed({ outbox });

  const recordChange = async (change: DocumentChange): Promise<void> => {
    if (!emitsEvents(change.contentType)) return;
    await outbox.record(payloadOf(change));
    // Woken after this turn: by then the transaction has usually committed, and a claim waits for it anyway.
    worker.nudge();
    feed.nudge();
  };

  return {
    outbox,
    feed,
    recordChange,
    async start() {
      await outbox.ensureIndexes();
      worker.start();
    },
    /** deliveries may be due now (after `outbox.retryFailed`) */
    nudge: worker.nudge,
    stop: () => {
      feed.stop();
      return worker.stop();
    },
  };
};

export type ContentEvents = ReturnType<typeof createContentEvents>;
