import { WEBHOOK_DEFAULTS } from './defaults';
import type { ConfigFile } from './file-schemas';
import type { WebhookConfig } from './types';

/** Webhooks with their delivery settings filled in (file-schemas checked them, names unique among them). */
export const resolveWebhooks = (value: ConfigFile<'webhooks'> | undefined): WebhookConfig[] => (value ?? []).map((entry) => ({ ...WEBHOOK_DEFAULTS, ...entry }));
