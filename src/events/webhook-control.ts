import { controlSocketPath, openControlSocket, type ControlSocket } from '../common/control-socket';
import type { Delivery, Outbox } from './outbox';

/** `folio webhook failed|retry [NAME]`: the dead-lettered deliveries, through the running server or in the store. */

export type WebhookRequest = { command: 'failed'; webhook?: string } | { command: 'retry'; webhook?: string };

export interface FailedDelivery extends Delivery {
  event: string | null;
  uid: string | null;
  createdAt: string | null;
}

export const webhookControlPath = (dataDir: string): string => controlSocketPath(dataDir, 'webhooks');

export const runWebhookRequest = async (outbox: Outbox, request: WebhookRequest): Promise<FailedDelivery[] | number> => {
  if (request.command === 'retry') return outbox.retryFailed(request.webhook);
  const failed = await outbox.failed(request.webhook);
  return Promise.all(
    failed.map(async (delivery) => {
      const event = await outbox.eventOf(delivery.eventId);
      return { ...delivery, event: event?.event ?? null, uid: event?.uid ?? null, createdAt: event?.createdAt ?? null };
    }),
  );
};

const isWebhookRequest = (value: unknown): value is WebhookRequest => {
  const request = value as { command?: unknown; webhook?: unknown } | null;
  return typeof request === 'object' && request !== null && (request.command === 'failed' || request.command === 'retry') && (request.webhook === undefined || typeof request.webhook === 'string');
};

/** `afterRetry`: wakes the worker, so re-sent deliveries go now rather than at the next poll. */
export const openWebhookControl = (dataDir: string, outbox: Outbox, afterRetry: () => void): Promise<ControlSocket> =>
  openControlSocket(
    webhookControlPath(dataDir),
    isWebhookRequest,
    async (request) => {
      const result = await runWebhookRequest(outbox, request);
      if (request.command === 'retry') afterRetry();
      return result;
    },
    'stop the server to manage failed webhook deliveries from the CLI',
  );
