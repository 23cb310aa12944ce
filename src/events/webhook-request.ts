import { createHmac } from 'node:crypto';
import type { WebhookConfig } from '../config/types';
import type { StoredEvent } from './outbox';

/** What a delivery carries: a stored content event, or the CLI's `trigger-test`. */
export type DeliveredEvent = Pick<StoredEvent, 'eventId' | 'createdAt' | 'model' | 'uid' | 'entry'> & { event: string };

/**
 * One delivery's HTTP request. The body is Strapi's payload, so existing receivers work unchanged;
 * `Folio-Event-Id` lets a receiver drop the duplicates at-least-once delivery can bring, and
 * `Folio-Signature: t=<unix seconds>,v1=<hex>` is the HMAC-SHA256, keyed with the webhook's secret,
 * of `<t>.<body>`: a receiver checks it and refuses old timestamps, so a captured request cannot be
 * replayed later.
 */

export const signatureOf = (secret: string, timestamp: number, body: string): string =>
  `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

export const bodyOf = (event: DeliveredEvent): string =>
  JSON.stringify({ event: event.event, createdAt: event.createdAt, model: event.model, uid: event.uid, entry: event.entry });

export const webhookRequest = (webhook: WebhookConfig, event: DeliveredEvent, attempt: number, now: number): { url: string; init: RequestInit } => {
  const body = bodyOf(event);
  const headers: Record<string, string> = {
    ...webhook.headers,
    'content-type': 'application/json',
    'x-strapi-event': event.event,
    'folio-event-id': event.eventId,
    'folio-delivery-attempt': String(attempt),
  };
  if (webhook.secret) headers['folio-signature'] = signatureOf(webhook.secret, Math.floor(now / 1000), body);
  return { url: webhook.url, init: { method: 'POST', headers, body, redirect: 'manual' } };
};

/** Exponential backoff with full jitter: a random wait up to 1 s × 2^(attempt-1), at most 5 minutes. */
export const retryDelay = (attempt: number, random = Math.random): number => Math.floor(random() * Math.min(300_000, 1000 * 2 ** (attempt - 1)));
