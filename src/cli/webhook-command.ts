import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../config/load-config';
import { WEBHOOK_EVENTS, type WebhookConfig } from '../config/types';
import { openStore } from '../storage/open-store';
import { sendControlRequest } from '../common/control-socket';
import { createOutbox } from '../events/outbox';
import { webhookRequest } from '../events/webhook-request';
import { runWebhookRequest, webhookControlPath, type FailedDelivery, type WebhookRequest } from '../events/webhook-control';
import { parseArgs } from './parse-args';
import { WEBHOOK_USAGE } from './usage';
import type { Output } from './token-command';

/**
 * `folio webhook …`: the webhooks of `config/webhooks.json` (list, add, remove, and a signed test
 * delivery), and the deliveries that failed for good (listed and re-sent through the running
 * server, or straight in the store when none runs).
 */

const FLAGS = new Set(['name', 'url', 'events', 'secret', 'data', 'config']);

const processOutput: Output = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

const usage = () => new Error(`Usage:\n${WEBHOOK_USAGE}`);

const table = (rows: string[][]): string => {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n') + '\n';
};

/** The JSON file the CLI edits; a `webhooks.js` is the user's code, which the CLI does not rewrite. */
const webhooksFile = (configDir: string) => {
  if (existsSync(join(configDir, 'webhooks.js'))) throw new Error(`${join(configDir, 'webhooks.js')} is code: edit it yourself`);
  const file = join(configDir, 'webhooks.json');
  const entries = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Array<Record<string, unknown>>) : [];
  return {
    entries,
    /** written, then checked by loading the whole configuration; put back as it was when it does not load */
    save(next: Array<Record<string, unknown>>) {
      const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
      writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`);
      try {
        loadConfig({ configDir, env: process.env });
      } catch (error) {
        if (before === undefined) writeFileSync(file, '[]\n');
        else writeFileSync(file, before);
        throw error;
      }
    },
  };
};

const findWebhook = (configDir: string, name: string | undefined): WebhookConfig => {
  if (name === undefined) throw usage();
  const webhook = loadConfig({ configDir, env: process.env }).webhooks.find((candidate) => candidate.name === name);
  if (!webhook) throw new Error(`No webhook is named "${name}"`);
  return webhook;
};

const deadLetters = async (request: WebhookRequest, dataDir: string, configDir: string) => {
  const reply = await sendControlRequest<FailedDelivery[] | number>(webhookControlPath(dataDir), request);
  if (reply && !reply.ok) throw new Error(reply.error);
  if (reply) return reply.result;
  const config = loadConfig({ configDir, env: process.env });
  const store = await openStore(config.database, dataDir);
  try {
    return await runWebhookRequest(createOutbox(store, () => config.webhooks), request);
  } finally {
    await store.close();
  }
};

export const runWebhookCommand = async (argv: string[], output: Output = processOutput): Promise<void> => {
  const { positionals, flags } = parseArgs(['webhook', ...argv], FLAGS);
  const [action, ...rest] = positionals;
  const configDir = resolve(flags.config ?? 'config');
  const dataDir = resolve(flags.data ?? '.data');
  if (rest.length > 1) throw usage();
  switch (action) {
    case 'list': {
      const { webhooks } = loadConfig({ configDir, env: process.env });
      if (webhooks.length === 0) return output.err('No webhooks.\n');
      return output.out(table([['NAME', 'URL', 'EVENTS', 'ENABLED', 'SIGNED'], ...webhooks.map((hook) => [hook.name, hook.url, hook.events.join(','), String(hook.enabled), hook.secret ? 'yes' : 'no'])]));
    }
    case 'add': {
      if (flags.name === undefined || flags.url === undefined || flags.events === undefined) throw usage();
      const file = webhooksFile(configDir);
      if (file.entries.some((entry) => entry.name === flags.name)) throw new Error(`A webhook is already named "${flags.name}"`);
      const events = flags.events === '*' ? [...WEBHOOK_EVENTS] : flags.events.split(',').map((event) => event.trim());
      file.save([...file.entries, { name: flags.name, url: flags.url, events, ...(flags.secret ? { secret: flags.secret } : {}) }]);
      return output.err(`Added the webhook "${flags.name}". A running server delivers to it from its next start.\n`);
    }
    case 'remove': {
      const name = rest[0];
      if (name === undefined) throw usage();
      const file = webhooksFile(configDir);
      const kept = file.entries.filter((entry) => entry.name !== name);
      if (kept.length === file.entries.length) throw new Error(`No webhook is named "${name}" in ${join(configDir, 'webhooks.json')}`);
      file.save(kept);
      return output.err(`Removed the webhook "${name}". A running server stops delivering to it at its next start.\n`);
    }
    case 'test': {
      const webhook = findWebhook(configDir, rest[0]);
      const now = Date.now();
      const { url, init } = webhookRequest(webhook, { event: 'trigger-test', eventId: randomUUID(), createdAt: new Date(now).toISOString(), model: '', uid: '', entry: {} }, 1, now);
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(webhook.timeout) });
      await response.body?.cancel();
      if (response.status < 200 || response.status >= 300) throw new Error(`${webhook.name}: ${url} answered ${response.status}`);
      return output.err(`${webhook.name}: ${url} answered ${response.status}\n`);
    }
    case 'failed': {
      const failed = (await deadLetters({ command: 'failed', webhook: rest[0] }, dataDir, configDir)) as FailedDelivery[];
      if (failed.length === 0) return output.err('No failed deliveries.\n');
      return output.out(table([['WEBHOOK', 'EVENT', 'UID', 'CREATED', 'ATTEMPTS', 'LAST ERROR'], ...failed.map((item) => [item.webhook, item.event ?? '-', item.uid ?? '-', item.createdAt ?? '-', String(item.attempts), item.lastError ?? '-'])]));
    }
    case 'retry': {
      const count = (await deadLetters({ command: 'retry', webhook: rest[0] }, dataDir, configDir)) as number;
      return output.err(`${count} failed ${count === 1 ? 'delivery' : 'deliveries'} will be sent again.\n`);
    }
    default:
      throw usage();
  }
};
