import type { FolioConfig } from '../config/types';
import type { Models } from '../models/types';
import type { Store } from '../storage/types';
import type { DocumentChange } from '../documents/document-change';
import { createEventPayloads, emitsEvents } from './event-payload';
import { createOutbox } from './outbox';
import { createWebhookWorker } from './webhook-worker';
import { createEventFeed } from './event-feed';
import { createEventRetention } from './event-retention';
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
  const retention = createEventRetention({ outbox });
  let control: ControlSocket | undefined;

  // changes recorded so far: a transaction that recorded some wakes the worker and the feed when it ends
  let recorded = 0;
  const nudge = (): void => {
    worker.nudge();
    feed.nudge();
  };
  const recordChange = async (change: DocumentChange): Promise<void> => {
    if (!emitsEvents(change.contentType)) return;
    await outbox.record(payloadOf(change));
    recorded += 1;
    // Also at once: a transaction made of store calls alone has usually committed when the feed reads.
    nudge();
  };

  return {
    outbox,
    feed,
    recordChange,
    /**
     * `store`, whose transactions wake the worker and the feed again once they have ended: the events they
     * recorded are then committed. Woken only while one was still open (when the change was recorded, and the
     * transaction went on, publishing), the feed read the last commit without them and found them at its next
     * poll, a quarter of a second later.
     */
    watch: (store: Store): Store => {
      const transaction = async <T>(work: () => Promise<T>): Promise<T> => {
        const before = recorded;
        try {
          return await store.transaction(work);
        } finally {
          if (recorded !== before) nudge();
        }
      };
      // the rest read from `store` when called: what is set on it later (a collection wrapped) holds here too
      return Object.assign(Object.create(store) as Store, { transaction });
    },
    async start() {
      await outbox.ensureIndexes();
      worker.start();
      retention.start();
      control = await openWebhookControl(dataDir, outbox, worker.nudge);
    },
    /** deliveries may be due now (after `outbox.retryFailed`) */
    nudge: worker.nudge,
    async stop() {
      await feed.stop();
      await retention.stop();
      await control?.close();
      await worker.stop();
    },
  };
};

export type ContentEvents = ReturnType<typeof createContentEvents>;
