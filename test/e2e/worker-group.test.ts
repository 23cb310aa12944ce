import { execFile } from 'node:child_process';
import { createServer, type Agent, type Server } from 'node:http';
import { pinBoth, send, type Answer } from '../support/worker-pinned';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { subscribe } from '../support/sse-subscription';
import { eventually } from '../support/eventually';

/**
 * `folio start` with two workers on one data folder (server.workers): a write through one worker is seen
 * through the other on the next request. Each request is pinned to a worker (a keep-alive connection that the
 * worker answered, told by `x-folio-worker`), so a worker that answered from state of its own would fail here.
 */

const run = promisify(execFile);
const ADMIN = 'worker-group-admin-key-0123456789abcdef';
let root: string;
let dataDir: string;
let configDir: string;
let server: ServerProcess;
let receiver: Server;
const deliveries: string[] = [];

const admin = { authorization: `Bearer ${ADMIN}` };
let one: Agent;
let two: Agent;

/** through worker `agent` answers, checked */
const through = async <T = unknown>(agent: Agent, expected: string, method: string, path: string, body?: unknown, headers: Record<string, string> = admin): Promise<Answer<T>> => {
  const answer = await send<T>(server.url, agent, method, path, body, headers);
  expect(answer.worker).toBe(expected);
  return answer;
};

const gql = <T>(agent: Agent, worker: string, query: string, variables?: Record<string, unknown>, headers: Record<string, string> = admin) =>
  through<{ data: T; errors?: unknown[] }>(agent, worker, 'POST', '/graphql', { query, variables }, headers);

const folio = (...argv: string[]) =>
  run(process.execPath, ['-r', require.resolve('../support/register-ts.js'), require.resolve('../../src/cli/run.ts'), ...argv, '--data', dataDir, '--config', configDir], {
    env: { ...process.env, NODE_ENV: 'test' },
  });

/** the pids of the group's workers (the primary's children) */
const workerPids = async (): Promise<number[]> =>
  (await run('pgrep', ['-P', String(server.child.pid)])).stdout
    .split('\n')
    .filter(Boolean)
    .map(Number);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-workers-'));
  dataDir = join(root, 'data');
  configDir = join(root, 'config');
  mkdirSync(configDir);
  receiver = createServer((incoming, answer) => {
    let received = '';
    incoming.on('data', (chunk: Buffer) => (received += chunk.toString()));
    incoming.on('end', () => {
      deliveries.push((JSON.parse(received) as { entry: { name: string } }).entry.name);
      answer.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  // embedded on purpose (whatever FOLIO_TEST_DATABASE says): the workers share its data folder
  writeFileSync(join(configDir, 'database.json'), JSON.stringify({ client: 'embedded' }));
  writeFileSync(join(configDir, 'admin.json'), JSON.stringify({ apiTokens: [{ name: 'admin', type: 'full-access', accessKey: ADMIN }] }));
  writeFileSync(join(configDir, 'plugins.json'), JSON.stringify({ graphql: { config: { responseCache: true } }, 'users-permissions': { config: { rateLimit: { max: 4, windowMs: 60_000 } } } }));
  writeFileSync(join(configDir, 'webhooks.json'), JSON.stringify([{ name: 'hook', url: hook, events: ['entry.create'] }]));
  server = await startServerProcess({ configDir, dataDir, env: { FOLIO_WORKERS: '2' } });
  [one, two] = await pinBoth(server.url);
}, 30_000);

afterAll(async () => {
  one?.destroy();
  two?.destroy();
  await server?.stop();
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const tagTotal = async (agent: Agent, worker: string) =>
  (await through<{ meta: { pagination: { total: number } } }>(agent, worker, 'GET', '/api/tags?pagination[pageSize]=1')).body.meta.pagination.total;

test('a write through one worker is counted, listed and cached as written by the other, at once', async () => {
  // worker 2 remembers the total, and caches the answer
  expect(await tagTotal(two, '2')).toBe(0);
  expect(await tagTotal(two, '2')).toBe(0);
  expect((await through(one, '1', 'POST', '/api/tags', { data: { name: 'first' } })).status).toBe(201);
  expect(await tagTotal(two, '2')).toBe(1);
  const listed = await gql<{ tags_connection: { pageInfo: { total: number }; nodes: Array<{ name: string }> } }>(two, '2', '{ tags_connection { pageInfo { total } nodes { name } } }');
  expect(listed.body.data.tags_connection).toEqual({ pageInfo: { total: 1 }, nodes: [{ name: 'first' }] });
  await through(two, '2', 'POST', '/api/tags', { data: { name: 'second' } });
  expect(await tagTotal(one, '1')).toBe(2);
});

test('a collection another worker wrote first is read (its catalog), and a new index of it used', async () => {
  // worker 2 has read categories while there were none: their table did not exist
  expect((await through<{ data: unknown[] }>(two, '2', 'GET', '/api/categories')).body.data).toEqual([]);
  await through(one, '1', 'POST', '/api/categories', { data: { name: 'News' } });
  const found = await through<{ data: Array<{ name: string }> }>(two, '2', 'GET', '/api/categories?filters[name][$containsi]=new');
  expect(found.body.data.map((category) => category.name)).toEqual(['News']);
});

test("a role's new permission holds on the other worker on its next request", async () => {
  const roles = await gql<{ usersPermissionsRoles: Array<{ documentId: string; type: string }> }>(one, '1', '{ usersPermissionsRoles { documentId type } }');
  const publicRole = roles.body.data.usersPermissionsRoles.find((role) => role.type === 'public')!;
  expect((await through(two, '2', 'GET', '/api/tags', undefined, {})).status).toBe(403);
  const granted = await gql(one, '1', 'mutation($id: ID!, $data: UsersPermissionsRoleInput!) { updateUsersPermissionsRole(id: $id, data: $data) { ok } }', {
    id: publicRole.documentId,
    data: { permissions: ['api::tag.tag.find'] },
  });
  expect(granted.body.errors).toBeUndefined();
  expect((await through(two, '2', 'GET', '/api/tags', undefined, {})).status).toBe(200);
});

test('an API token made with `folio token` opens both workers, and once revoked neither', async () => {
  const { stdout } = await folio('token', 'create', '--name', 'reader', '--type', 'read-only');
  const key = { authorization: `Bearer ${stdout.trim()}` };
  expect((await through(one, '1', 'GET', '/api/articles', undefined, key)).status).toBe(200);
  expect((await through(two, '2', 'GET', '/api/articles', undefined, key)).status).toBe(200);
  await folio('token', 'revoke', 'reader');
  expect((await through(one, '1', 'GET', '/api/articles', undefined, key)).status).toBe(401);
  expect((await through(two, '2', 'GET', '/api/articles', undefined, key)).status).toBe(401);
});

test('a subscriber on one worker gets what is written through the other; each webhook delivery is sent once', async () => {
  const streams = await Promise.all(
    [0, 1, 2, 3].map(() => subscribe(server, 'subscription { tagCreated { name } }', admin)),
  );
  try {
    await through(one, '1', 'POST', '/api/tags', { data: { name: 'through-one' } });
    await through(two, '2', 'POST', '/api/tags', { data: { name: 'through-two' } });
    // the streams landed on both workers; each gets both writes
    await eventually(() => streams.every((stream) => stream.results.length === 2));
    for (const stream of streams) expect(stream.results.map((result) => (result.data!.tagCreated as { name: string }).name).sort()).toEqual(['through-one', 'through-two']);
  } finally {
    for (const stream of streams) stream.close();
  }
  await eventually(() => deliveries.includes('through-one') && deliveries.includes('through-two'));
  // both workers poll the outbox every second: give the other one its chance to send it again
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(deliveries.sort()).toEqual(['News', 'first', 'second', 'through-one', 'through-two']);
});

test('sign-in attempts are counted across workers', async () => {
  const attempt = (agent: Agent, worker: string) => through(agent, worker, 'POST', '/api/auth/local', { identifier: 'nobody', password: 'whatever' }, {});
  const statuses = [];
  for (const [agent, worker] of [[one, '1'], [two, '2'], [one, '1'], [two, '2'], [one, '1'], [two, '2']] as const) statuses.push((await attempt(agent, worker)).status);
  expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
});

test('a killed worker is replaced; kill -9 of the whole group loses no acknowledged write', async () => {
  const [first] = await workerPids();
  process.kill(first, 'SIGKILL');
  await eventually(async () => (await workerPids()).length === 2 && !(await workerPids()).includes(first), 15_000);
  one.destroy();
  two.destroy();
  [one, two] = await pinBoth(server.url);
  const names = Array.from({ length: 20 }, (_, index) => `acked-${index}`);
  const written = await Promise.all(names.map((name, index) => through(index % 2 ? two : one, index % 2 ? '2' : '1', 'POST', '/api/tags', { data: { name } })));
  expect(written.every((answer) => answer.status === 201)).toBe(true);
  for (const pid of [...(await workerPids()), server.child.pid!]) process.kill(pid, 'SIGKILL');
  await server.stop();
  one.destroy();
  two.destroy();
  server = await startServerProcess({ configDir, dataDir, env: { FOLIO_WORKERS: '2' } });
  [one, two] = await pinBoth(server.url);
  const listed = await through<{ data: Array<{ name: string }> }>(two, '2', 'GET', '/api/tags?filters[name][$startsWith]=acked-&pagination[pageSize]=100');
  expect(listed.body.data.map((tag) => tag.name).sort()).toEqual([...names].sort());
}, 90_000);
