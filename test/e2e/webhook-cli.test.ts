import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startFolio, type StartedFolio } from '../../src/app/start-folio';
import { writeConfigFiles } from '../support/server-process';
import { runWebhookCommand } from '../../src/cli/webhook-command';
import { EXAMPLE_SCHEMA, FULL_ACCESS_TOKEN } from '../support/test-server';
import { eventually } from '../support/eventually';

/** `folio webhook list|add|remove|test|failed|retry`, with the server stopped (the store) and running (its control socket). */

const run = promisify(execFile);

let root: string;
let dataDir: string;
let configDir: string;
let receiver: Server;
let receiverUrl: string;
let answer = 200;
const received: Array<{ event: string; signature: string | undefined }> = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-webhook-cli-'));
  dataDir = join(root, 'data');
  configDir = join(root, 'config');
  mkdirSync(configDir);
  writeConfigFiles(configDir, { admin: { apiTokens: [{ name: 'admin', type: 'full-access', accessKey: FULL_ACCESS_TOKEN }] } }, dataDir);
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (answer < 300) received.push({ event: (JSON.parse(body) as { event: string }).event, signature: request.headers['folio-signature'] as string | undefined });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const webhook = async (...argv: string[]) => {
  const output = { out: '', err: '' };
  await runWebhookCommand([...argv, '--data', dataDir, '--config', configDir], { out: (text) => (output.out += text), err: (text) => (output.err += text) });
  return output;
};

/** `folio webhook …` in a process of its own, as an operator runs it next to a stopped server: the commands that open the store themselves. */
const webhookInOtherProcess = async (...argv: string[]) => {
  const { stdout, stderr } = await run(
    process.execPath,
    ['-r', require.resolve('../support/register-ts.js'), require.resolve('../../src/cli/run.ts'), 'webhook', ...argv, '--data', dataDir, '--config', configDir],
    { env: { ...process.env, NODE_ENV: 'test' } },
  );
  return { out: stdout, err: stderr };
};

/** deliveries take milliseconds here; the bound is for a CI machine running every suite at once */
const LOADED_MACHINE_MS = 20_000;

const start = () => startFolio({ schemaDir: EXAMPLE_SCHEMA, configDir, dataDir, host: '127.0.0.1', port: 0, env: { NODE_ENV: 'test' } });

const createTag = async (server: StartedFolio, name: string) => {
  const response = await fetch(`${server.url}/api/tags`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${FULL_ACCESS_TOKEN}` },
    body: JSON.stringify({ data: { name } }),
  });
  expect(response.status).toBe(201);
};

test('add, list, test and remove edit config/webhooks.json and check it as start-up does', async () => {
  expect((await webhook('list')).err).toBe('No webhooks.\n');
  await webhook('add', '--name', 'site', '--url', receiverUrl, '--events', 'entry.create,entry.update', '--secret', 'cli-secret-0123456789');
  expect(JSON.parse(readFileSync(join(configDir, 'webhooks.json'), 'utf8'))).toEqual([
    { name: 'site', url: receiverUrl, events: ['entry.create', 'entry.update'], secret: 'cli-secret-0123456789' },
  ]);
  expect((await webhook('list')).out).toContain(`site  ${receiverUrl}  entry.create,entry.update  true     yes`);
  await expect(webhook('add', '--name', 'typo', '--url', receiverUrl, '--events', 'entry.craete')).rejects.toThrow(/events\[0\]/);
  expect(JSON.parse(readFileSync(join(configDir, 'webhooks.json'), 'utf8'))).toHaveLength(1);

  expect((await webhook('test', 'site')).err).toBe(`site: ${receiverUrl} answered 200\n`);
  expect(received.pop()).toEqual({ event: 'trigger-test', signature: expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/) });
  await expect(webhook('test', 'nobody')).rejects.toThrow('No webhook is named "nobody"');

  await webhook('add', '--name', 'other', '--url', receiverUrl, '--events', '*');
  await webhook('remove', 'other');
  expect(JSON.parse(readFileSync(join(configDir, 'webhooks.json'), 'utf8')).map((entry: { name: string }) => entry.name)).toEqual(['site']);
});

test('failed deliveries are listed and re-sent, through the running server and in the store', async () => {
  writeFileSync(join(configDir, 'webhooks.json'), JSON.stringify([{ name: 'site', url: receiverUrl, events: ['entry.create'], maxAttempts: 1 }]));
  answer = 500;
  let server = await start();
  try {
    await createTag(server, 'first');
    await eventually(async () => (await webhook('failed')).out.includes('entry.create'), LOADED_MACHINE_MS);
    const listed = (await webhook('failed', 'site')).out;
    expect(listed).toMatch(/^WEBHOOK\s+EVENT\s+UID\s+CREATED\s+ATTEMPTS\s+LAST ERROR\n/);
    expect(listed).toContain('site     entry.create  api::tag.tag');
    expect(listed).toContain('HTTP 500');
    answer = 200;
    expect((await webhook('retry', 'site')).err).toBe('1 failed delivery will be sent again.\n');
    await eventually(() => received.some(({ event }) => event === 'entry.create'), LOADED_MACHINE_MS);
    expect((await webhook('failed')).err).toBe('No failed deliveries.\n');

    answer = 500;
    await createTag(server, 'second');
    await eventually(async () => (await webhook('failed')).out.includes('entry.create'), LOADED_MACHINE_MS);
  } finally {
    await server.close();
  }
  // With no server: straight in the store; the delivery goes out at the next start.
  expect((await webhookInOtherProcess('failed')).out).toContain('HTTP 500');
  answer = 200;
  received.length = 0;
  expect((await webhookInOtherProcess('retry')).err).toBe('1 failed delivery will be sent again.\n');
  server = await start();
  try {
    await eventually(() => received.length === 1, LOADED_MACHINE_MS);
  } finally {
    await server.close();
  }
}, 90_000);
