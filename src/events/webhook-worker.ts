import type { WebhookConfig } from '../config/types';
import type { Delivery, Outbox } from './outbox';
import { retryDelay, webhookRequest } from './webhook-request';
import { createSingleFlightPoll } from './single-flight-poll';

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

  const polls = createSingleFlightPoll({ pass: poll, interval: pollInterval, onError: (error) => log(`webhooks: ${error.message}`) });

  /** Something may be due now (a write committed, a delivery finished). */
  function nudge() {
    polls.soon();
  }

  return {
    start() {
      stopped = false;
      polls.start(0);
    },
    nudge,
    /** Stops polling and waits for the requests in flight. */
    async stop() {
      stopped = true;
      await polls.stop();
      await Promise.allSettled([...running]);
    },
  };
};
