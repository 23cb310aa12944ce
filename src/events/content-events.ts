import type { FolioConfig } from '../config/types';
import type { Models } from '../models/types';
import type { Store } from '../storage/types';
import type { DocumentChange } from '../documents/document-change';
import { createEventPayloads, emitsEvents } from './event-payload';
import { createOutbox } from './outbox';
import { createWebhookWorker } from './webhook-worker';
import { createEventFeed } from './event-feed';
import { openWebhookControl } from './webhook-control';
import type { ControlSocket } from '../common/control-socket';

/**
 * Content events: every change of a content-type (or of a user) is written to the outbox in the
 * change's own transaction, then delivered to the configured webhooks by the worker and to
 * GraphQL subscriptions by the feed.
 */

export interface ContentEventsOptions {
  models: Models;
  config: FolioConfig;
  store: Store;
  /** where the control socket of `folio webhook failed|retry` listens */
  dataDir: string;
  /** ms between outbox polls (the worker is also woken by each write). @default 1000 */
  pollInterval?: number;
}

export const createContentEvents = ({ models, config, store, dataDir, pollInterval }: ContentEventsOptions) => {
  const webhooks = () => config.webhooks;
  const outbox = createOutbox(store, webhooks);
  const payloadOf = createEventPayloads(models);
  const worker = createWebhookWorker({ outbox, webhooks, pollInterval });
  const feed = createEventFeed({ outbox });
  let control: ControlSocket | undefined;

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
      control = await openWebhookControl(dataDir, outbox, worker.nudge);
    },
    /** deliveries may be due now (after `outbox.retryFailed`) */
    nudge: worker.nudge,
    async stop() {
      await feed.stop();
      await control?.close();
      await worker.stop();
    },
  };
};

export type ContentEvents = ReturnType<typeof createContentEvents>;
