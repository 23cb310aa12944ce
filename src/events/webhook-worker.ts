import { AsyncResource } from 'node:async_hooks';
import type { WebhookConfig } from '../config/types';
import type { Delivery, Outbox } from './outbox';
import { retryDelay, webhookRequest } from './webhook-request';

/**
 * Delivers the outbox's pending deliveries: polls for due ones (and at once when `nudge`d after a
 * write), claims each with a lease, holds at most `concurrency` in flight per webhook, gives each
 * request `timeout` ms, and settles it: delivered on a 2xx, due again after a jittered exponential
 * backoff otherwise, failed after `maxAttempts`. A crash mid-delivery leaves the lease to expire, so
 * the delivery is sent again (at least once).
 */

export interface WebhookWorkerOptions {
  outbox: Outbox;
  webhooks: () => readonly WebhookConfig[];
  /** ms between polls when nothing nudges. @default 1000 */
  pollInterval?: number;
  log?: (line: string) => void;
}

const BATCH = 32;

export const createWebhookWorker = ({ outbox, webhooks, pollInterval = 1000, log = (line) => process.stderr.write(`${line}\n`) }: WebhookWorkerOptions) => {
  const inFlight = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  // the poll under way: a stop waits for it, since it reads the outbox the store's close would cut
  let polled: Promise<void> = Promise.resolve();
  let again = false;
  let stopped = true;

  const byName = (name: string) => webhooks().find((webhook) => webhook.name === name);

  const deliver = async (webhook: WebhookConfig, delivery: Delivery): Promise<void> => {
    const attempt = delivery.attempts + 1;
    let error: string | null = null;
    try {
      const event = await outbox.eventOf(delivery.eventId);
      if (!event) return void (await outbox.settle(delivery, { state: 'failed', attempts: attempt, lastError: 'event no longer stored' }));
      const { url, init } = webhookRequest(webhook, event, attempt, Date.now());
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(webhook.timeout) });
      await response.body?.cancel();
      if (response.status >= 200 && response.status < 300) return void (await outbox.settle(delivery, { state: 'delivered', attempts: attempt, lastError: null }));
      error = `HTTP ${response.status}`;
    } catch (failure) {
      error = failure instanceof Error ? (failure.name === 'TimeoutError' ? `no answer within ${webhook.timeout} ms` : failure.message) : String(failure);
    }
    const failed = attempt >= webhook.maxAttempts;
    await outbox.settle(delivery, failed ? { state: 'failed', attempts: attempt, lastError: error } : { attempts: attempt, dueAt: Date.now() + retryDelay(attempt), lastError: error });
    if (failed) log(`webhook ${webhook.name}: event ${delivery.eventId} failed after ${attempt} attempts (${error}); \`folio webhook retry ${webhook.name}\` sends it again`);
  };

  const start = (webhook: WebhookConfig, delivery: Delivery) => {
    inFlight.set(webhook.name, (inFlight.get(webhook.name) ?? 0) + 1);
    const work = deliver(webhook, delivery)
      .catch((error: Error) => log(`webhook ${webhook.name}: ${error.message}`))
      .finally(() => {
        inFlight.set(webhook.name, (inFlight.get(webhook.name) ?? 1) - 1);
        running.delete(work);
        nudge();
      });
    running.add(work);
  };

  const poll = async () => {
    const now = Date.now();
    for (const delivery of await outbox.due(now, BATCH)) {
      if (stopped) return;
      const webhook = byName(delivery.webhook);
      if (!webhook || !webhook.enabled || (inFlight.get(webhook.name) ?? 0) >= webhook.concurrency) continue;
      // The lease outlives the request by a margin, so only a dead worker's deliveries are taken over.
      // stopped while claiming: the lease lapses, and the delivery is another worker's or the next start's
      if ((await outbox.claim(delivery, now, now + webhook.timeout + 5000)) && !stopped) start(webhook, delivery);
    }
  };

  // In the context the worker was made in: a nudge comes from inside a write's transaction, which its
  // timer must not carry (a poll would join the transaction, or find its session ended).
  const schedule = AsyncResource.bind((delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delay);
    timer.unref();
  });

  function run() {
    if (polling) {
      again = true;
      return;
    }
    polling = true;
    polled = poll()
      .catch((error: Error) => log(`webhooks: ${error.message}`))
      .finally(() => {
        polling = false;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(pollInterval);
      });
  }

  /** Something may be due now (a write committed, a delivery finished). */
  function nudge() {
    schedule(0);
  }

  return {
    start() {
      stopped = false;
      schedule(0);
    },
    nudge,
    /** Stops polling and waits for the requests in flight. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await polled;
      await Promise.allSettled([...running]);
    },
  };
};
