import type { ConfigProblem } from './config-error';
import { WEBHOOK_DEFAULTS } from './defaults';
import type { ConfigFile } from './file-schemas';
import type { WebhookConfig } from './types';

/** Webhooks with their delivery settings filled in; a name used twice is an error (deliveries are keyed by it). */
export const resolveWebhooks = (value: ConfigFile<'webhooks'> | undefined, source: string, problems: ConfigProblem[]): WebhookConfig[] => {
  const webhooks = (value ?? []).map((entry) => ({ ...WEBHOOK_DEFAULTS, ...entry }));
  const seen = new Set<string>();
  webhooks.forEach(({ name }, index) => {
    if (seen.has(name)) problems.push({ source, path: `[${index}].name`, message: `"${name}" is used by another webhook` });
    seen.add(name);
  });
  return webhooks;
};
