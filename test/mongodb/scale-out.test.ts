import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServerProcess, writeConfigFiles, type ServerProcess } from '../support/server-process';
import { defaultPlugins, FULL_ACCESS_TOKEN, mongodbDatabase } from '../support/test-server';
import { bearer, call } from '../auth/http';
import { png } from '../upload/images';
import { subscribe } from '../support/sse-subscription';
import { eventually } from '../support/eventually';

/**
 * Two Folio processes on one MongoDB database, as behind a load balancer: each has its own data folder
 * and port, and only the database in common. What one is told, the other answers at once: content and
 * its counts on both surfaces, subscriptions, sign-in attempts against one budget, uploaded files, API
 * tokens, JWTs.
 */

const run = promisify(execFile);
const RATE_LIMIT = 4;
let root: string;
let configDir: string;
const dataDirs: string[] = [];
let one: ServerProcess;
let two: ServerProcess;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-scale-out-'));
  configDir = join(root, 'config');
  mkdirSync(configDir);
  const plugins = defaultPlugins();
  const usersPermissions = plugins['users-permissions'] as { config: Record<string, unknown> };
  usersPermissions.config.rateLimit = { max: RATE_LIMIT, windowMs: 60_000 };
  writeConfigFiles(configDir, {
    plugins,
    admin: { apiTokens: [{ name: 'test-admin', type: 'full-access', accessKey: FULL_ACCESS_TOKEN }] },
    database: mongodbDatabase(),
  });
  for (const name of ['one', 'two']) dataDirs.push(join(root, name));
  // one after the other: the in-process server does not enforce the unique index that settles two first starts
  one = await startServerProcess({ configDir, dataDir: dataDirs[0] });
  two = await startServerProcess({ configDir, dataDir: dataDirs[1] });
}, 60_000);
afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
  rmSync(root, { recursive: true, force: true });
});

const admin = bearer(FULL_ACCESS_TOKEN);

const gql = async <T>(server: ServerProcess, query: string, headers: Record<string, string> = {}) =>
  (await call<{ data: T; errors?: unknown[] }>(server.url, 'POST', '/graphql', { body: { query }, headers })).body;

const restTotal = async (server: ServerProcess) =>
  (await call<{ meta: { pagination: { total: number } } }>(server.url, 'GET', '/api/tags?pagination[pageSize]=1', { headers: admin })).body.meta.pagination.total;

const graphqlTotal = async (server: ServerProcess) => (await gql<{ tags_connection: { pageInfo: { total: number } } }>(server, '{ tags_connection { pageInfo { total } } }', admin)).data.tags_connection.pageInfo.total;

test('a write on one is read at once on the other, counts included, on REST and GraphQL', async () => {
  const before = await restTotal(two);
  const created = await call<{ data: { documentId: string } }>(one.url, 'POST', '/api/tags', { body: { data: { name: 'shared' } }, headers: admin });
  expect(created.status).toBe(201);
  const { documentId } = created.body.data;

  expect((await call<{ data: { name: string } }>(two.url, 'GET', `/api/tags/${documentId}`, { headers: admin })).body.data.name).toBe('shared');
  expect(await restTotal(two)).toBe(before + 1);
  expect(await graphqlTotal(two)).toBe(before + 1);

  const renamed = await gql<{ updateTag: { name: string } }>(two, `mutation { updateTag(documentId: "${documentId}", data: { name: "renamed" }) { name } }`, admin);
  expect(renamed.data.updateTag.name).toBe('renamed');
  expect((await gql<{ tag: { name: string } }>(one, `{ tag(documentId: "${documentId}") { name } }`, admin)).data.tag.name).toBe('renamed');

  expect((await call(two.url, 'DELETE', `/api/tags/${documentId}`, { headers: admin })).status).toBe(204);
  expect(await restTotal(one)).toBe(before);
  expect(await graphqlTotal(one)).toBe(before);
  expect((await call(one.url, 'GET', `/api/tags/${documentId}`, { headers: admin })).status).toBe(404);
});

test('a subscriber on one is told of writes made through the other', async () => {
  const stream = await subscribe(two, 'subscription { tagCreated { name } }', admin);
  try {
    expect(stream.status).toBe(200);
    for (const name of ['first', 'second']) expect((await call(one.url, 'POST', '/api/tags', { body: { data: { name } }, headers: admin })).status).toBe(201);
    await eventually(() => stream.results.length === 2);
    expect(stream.results.map((result) => result.data)).toEqual([{ tagCreated: { name: 'first' } }, { tagCreated: { name: 'second' } }]);
  } finally {
    stream.close();
  }
});

test('a file uploaded through one is downloaded through the other, whole and by range', async () => {
  const image = png(640, 480);
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'shared.png');
  const uploaded = await fetch(`${one.url}/api/upload`, { method: 'POST', body: form, headers: admin });
  expect(uploaded.status).toBe(201);
  const [file] = (await uploaded.json()) as Array<{ url: string; formats: Record<string, { url: string }> }>;

  const whole = await fetch(`${two.url}${file.url}`);
  expect(whole.status).toBe(200);
  expect(Buffer.from(await whole.arrayBuffer()).equals(image)).toBe(true);
  const part = await fetch(`${two.url}${file.url}`, { headers: { range: 'bytes=0-7' } });
  expect(part.status).toBe(206);
  expect(Buffer.from(await part.arrayBuffer()).equals(image.subarray(0, 8))).toBe(true);
  expect((await fetch(`${two.url}${file.formats.thumbnail.url}`)).status).toBe(200);
});

test('an API token created through one opens the other; revoked through the other, it opens neither', async () => {
  const cli = (dataDir: string, ...argv: string[]) =>
    run(process.execPath, ['-r', require.resolve('../support/register-ts.js'), require.resolve('../../src/cli/run.ts'), 'token', ...argv, '--data', dataDir, '--config', configDir], {
      env: { ...process.env, NODE_ENV: 'test' },
    });
  const created = await cli(dataDirs[0], 'create', '--name', 'shared-reader', '--type', 'read-only');
  const key = created.stdout.trim();
  expect(key).toMatch(/^[0-9a-f]{64}$/);
  expect((await call(two.url, 'GET', '/api/tags', { headers: bearer(key) })).status).toBe(200);

  await cli(dataDirs[1], 'revoke', 'shared-reader');
  expect((await call(one.url, 'GET', '/api/tags', { headers: bearer(key) })).status).toBe(401);
  expect((await call(two.url, 'GET', '/api/tags', { headers: bearer(key) })).status).toBe(401);
}, 30_000);

/** the JWT of the one user the next test signs up: sign-ups count against the small rate limit, so the last test reuses it */
let roamer = '';

test('sign-in attempts are counted across both; a JWT from one is honoured by the other', async () => {
  const signUp = await call<{ jwt: string }>(one.url, 'POST', '/api/auth/local/register', { body: { username: 'roamer', email: 'roamer@example.com', password: 'Passw0rd!' } });
  expect(signUp.status).toBe(200);
  roamer = signUp.body.jwt;
  expect((await call<{ username: string }>(two.url, 'GET', '/api/users/me', { headers: bearer(signUp.body.jwt) })).body.username).toBe('roamer');

  const signIn = (server: ServerProcess, password: string) => call(server.url, 'POST', '/api/auth/local', { body: { identifier: 'roamer', password } });
  expect((await signIn(two, 'Passw0rd!')).status).toBe(200);
  expect((await signIn(one, 'wrong-password')).status).toBe(400);
  const last = await signIn(two, 'wrong-password');
  expect(last.status).toBe(400);
  expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
  // the budget of RATE_LIMIT attempts is spent, half on each: both refuse, the right password too
  expect((await signIn(one, 'Passw0rd!')).status).toBe(429);
  const refused = await gql<unknown>(two, 'mutation { login(input: { identifier: "roamer", password: "Passw0rd!" }) { jwt } }');
  expect(refused.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) })]);
});

test("what a role grants, changed through one, holds on the other within a second", async () => {
  const tags = async (server: ServerProcess) => (await call(server.url, 'GET', '/api/tags', { headers: bearer(roamer) })).status;
  expect(await tags(two)).toBe(403);
  const roles = await gql<{ usersPermissionsRoles: Array<{ documentId: string; type: string }> }>(two, '{ usersPermissionsRoles { documentId type } }', admin);
  const authenticated = roles.data.usersPermissionsRoles.find(({ type }) => type === 'authenticated')!;
  const actions = ['plugin::users-permissions.user.me', 'plugin::users-permissions.auth.changePassword', 'api::tag.tag.find'];
  const changed = await gql<unknown>(one, `mutation { updateUsersPermissionsRole(id: "${authenticated.documentId}", data: { permissions: ${JSON.stringify(actions)} }) { ok } }`, admin);
  expect(changed).toEqual({ data: { updateUsersPermissionsRole: { ok: true } } });
  expect(await tags(one)).toBe(200);
  const started = Date.now();
  await eventually(async () => (await tags(two)) === 200, 5000);
  expect(Date.now() - started).toBeLessThan(2500);
});
