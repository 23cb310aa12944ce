import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startFolio, type StartedFolio } from '../../src/app/start-folio';
import { runTokenCommand } from '../../src/cli/token-command';
import { EXAMPLE_SCHEMA } from '../support/test-server';
import { bearer } from '../auth/http';

/**
 * `folio token create|list|revoke` with the server stopped (straight in the store) and running (through
 * its control socket, from this process and from another one), and a running server noticing at once.
 */

const run = promisify(execFile);
let root: string;
let dataDir: string;
let configDir: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'folio-token-cli-'));
  dataDir = join(root, 'data');
  configDir = join(root, 'config');
  mkdirSync(configDir);
  writeFileSync(join(configDir, 'admin.json'), JSON.stringify({ apiTokens: [{ name: 'deploy', type: 'read-only', accessKey: 'deploy-key-0123456789abcdef' }] }));
  writeFileSync(join(configDir, 'plugins.json'), JSON.stringify({ 'users-permissions': { config: { roles: { public: { permissions: [] } } } } }));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the command in this process, capturing what it prints. */
const token = async (...argv: string[]) => {
  const output = { out: '', err: '' };
  await runTokenCommand([...argv, '--data', dataDir, '--config', configDir], {
    out: (text) => (output.out += text),
    err: (text) => (output.err += text),
  });
  return output;
};

/** Runs `folio token …` as another process, as an operator would next to a running server. */
const tokenInOtherProcess = (...argv: string[]) =>
  run(process.execPath, ['-r', require.resolve('../support/register-ts.js'), require.resolve('../../src/cli/run.ts'), 'token', ...argv, '--data', dataDir, '--config', configDir], {
    env: { ...process.env, NODE_ENV: 'test' },
  });

const start = () => startFolio({ schemaDir: EXAMPLE_SCHEMA, configDir, dataDir, host: '127.0.0.1', port: 0, env: { NODE_ENV: 'test' } });

const statusWith = async (server: StartedFolio, key: string) =>
  (
    await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(key) },
      body: JSON.stringify({ query: '{ tags { name } }' }),
    })
  ).status;

const KEY_LINE = /^[0-9a-f]{64}\n$/;

describe('with no server running', () => {
  test('create prints the key alone on stdout, once; list never shows it', async () => {
    const created = await token('create', '--name', 'ci', '--type', 'custom', '--permissions', 'api::tag.tag.find, api::tag.tag.create', '--expires-in', '30d');
    expect(created.out).toMatch(KEY_LINE);
    expect(created.err).toMatch(/Created the custom API token "ci", expires \d{4}-/);
    const listed = await token('list');
    expect(listed.out).toMatch(/^NAME +TYPE +SOURCE +CREATED +EXPIRES +PERMISSIONS\nci +custom +cli +\S+ +\S+ +api::tag\.tag\.find,api::tag\.tag\.create\n$/);
    expect(listed.out).not.toContain(created.out.trim());
  });

  test('refuses what could not work, with a message that says why', async () => {
    await expect(token('create', '--name', 'ci', '--type', 'full-access')).rejects.toThrow('an API token named "ci" already exists');
    await expect(token('create', '--name', 'x', '--type', 'admin')).rejects.toThrow('type must be one of full-access, read-only, custom, got "admin"');
    await expect(token('create', '--name', 'x', '--type', 'custom')).rejects.toThrow('a custom token needs at least one permission');
    await expect(token('create', '--name', 'x', '--type', 'read-only', '--permissions', 'api::tag.tag.find')).rejects.toThrow('permissions only apply to custom tokens');
    await expect(token('create', '--name', 'x', '--type', 'custom', '--permissions', 'tags')).rejects.toThrow('"tags" is not a permission');
    await expect(token('create', '--name', 'x', '--type', 'full-access', '--expires-in', 'tomorrow')).rejects.toThrow('expiry "tomorrow" is not a duration');
    await expect(token('create', '--type', 'full-access')).rejects.toThrow(/^Usage:/);
    await expect(token('revoke', 'nobody')).rejects.toThrow('No API token is named "nobody"');
  });

  test('a store whose tokens were all made with another salt is not written with this one', async () => {
    process.env.API_TOKEN_SALT = 'some-other-salt';
    try {
      await expect(token('create', '--name', 'salty', '--type', 'full-access')).rejects.toThrow(/made with another API token salt/);
    } finally {
      delete process.env.API_TOKEN_SALT;
    }
  });
});

describe('with a server running on the same data directory', () => {
  let server: StartedFolio;
  let ciKey: string;
  beforeAll(async () => {
    await token('revoke', 'ci');
    ciKey = (await token('create', '--name', 'ci', '--type', 'custom', '--permissions', 'api::tag.tag.find')).out.trim();
    server = await start();
  });
  afterAll(() => server.close());

  test('a token made while the server was stopped works; so does the one seeded from config/admin', async () => {
    expect(await statusWith(server, ciKey)).toBe(200);
    expect(await statusWith(server, 'deploy-key-0123456789abcdef')).toBe(200);
  });

  test('create and revoke from this process go through the server, which notices at once', async () => {
    const { out } = await token('create', '--name', 'live', '--type', 'read-only');
    expect(out).toMatch(KEY_LINE);
    expect(await statusWith(server, out.trim())).toBe(200);
    expect((await token('revoke', 'live')).err).toMatch(/Revoked the read-only API token "live"/);
    expect(await statusWith(server, out.trim())).toBe(401);
  });

  test('another process can create, list and revoke while the server holds the data directory', async () => {
    const created = await tokenInOtherProcess('create', '--name', 'other', '--type', 'full-access');
    expect(created.stdout).toMatch(KEY_LINE);
    expect(await statusWith(server, created.stdout.trim())).toBe(200);
    const listed = await tokenInOtherProcess('list');
    expect(listed.stdout.split('\n').map((line) => line.split(/ +/)[0])).toEqual(['NAME', 'ci', 'deploy', 'other', '']);
    await tokenInOtherProcess('revoke', 'ci');
    expect(await statusWith(server, ciKey)).toBe(401);
  });

  test('revoking a token declared in config says it comes back at the next start', async () => {
    const { err } = await token('revoke', 'deploy');
    expect(err).toMatch(/declared in config\/admin/);
    expect(await statusWith(server, 'deploy-key-0123456789abcdef')).toBe(401);
  });
});

test('after a restart, config tokens are back and revoked ones stay gone', async () => {
  const server = await start();
  try {
    expect(await statusWith(server, 'deploy-key-0123456789abcdef')).toBe(200);
    const listed = await token('list');
    expect(listed.out.split('\n').map((line) => line.split(/ +/)[0])).toEqual(['NAME', 'other', 'deploy', '']);
  } finally {
    await server.close();
  }
});
