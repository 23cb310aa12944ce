import type { ConfigProblem } from './config-error';
import { arrayOf, boolean, integer, object, oneOf, recordOf, string, type ShapeOutput } from './shape';
import { WEBHOOK_EVENTS, type WebhookConfig } from './types';

/**
 * `config/webhooks`: `[{ name, url, events, headers, enabled }]`, Strapi's webhook fields, plus a `secret`
 * to sign deliveries and the delivery knobs. A `.js` file reads secrets with `env()`.
 */

const webhook = object(
  {
    name: string({ pattern: /^[\w.-]{1,64}$/, expected: 'a name of letters, digits, ".", "_" or "-" (at most 64)' }),
    url: string({ pattern: /^https?:\/\/\S+$/, expected: 'an http:// or https:// URL' }),
    events: arrayOf(oneOf(WEBHOOK_EVENTS), { nonEmpty: true }),
    headers: recordOf(string({ expected: 'a non-empty header value', secret: true })),
    enabled: boolean,
    secret: string({ secret: true }),
    concurrency: integer({ min: 1, max: 64 }),
    timeout: integer({ min: 100, max: 300_000 }),
    maxAttempts: integer({ min: 1, max: 100 }),
  },
  { required: ['name', 'url', 'events'] },
);

export const webhooksFileShape = arrayOf(webhook);

export const resolveWebhooks = (value: ShapeOutput<typeof webhooksFileShape> | undefined, source: string, problems: ConfigProblem[]): WebhookConfig[] => {
  const webhooks = (value ?? []).map((entry) => ({ headers: {}, enabled: true, concurrency: 4, timeout: 10_000, maxAttempts: 8, ...entry }));
  const seen = new Set<string>();
  webhooks.forEach(({ name }, index) => {
    if (seen.has(name)) problems.push({ source, path: `[${index}].name`, message: `"${name}" is used by another webhook` });
    seen.add(name);
  });
  return webhooks;
};
