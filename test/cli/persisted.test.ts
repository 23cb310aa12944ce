import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPersistedCommand } from '../../src/cli/persisted-command';
import { startFolio } from '../../src/app/start-folio';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/** `folio persisted add|list`: the trusted-documents store, checked against the served schema, then served by hash. */

let root: string;
let configDir: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'folio-persisted-'));
  configDir = join(root, 'config');
  mkdirSync(configDir);
  writeFileSync(
    join(configDir, 'plugins.json'),
    JSON.stringify({
      graphql: { config: { persistedOperations: { store: 'persisted.json', allowArbitraryOperations: false } } },
      'users-permissions': { config: { roles: { public: { permissions: ['api::tag.tag.find'] } } } },
    }),
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const persisted = async (...argv: string[]) => {
  let out = '';
  await runPersistedCommand([...argv, '--config', configDir, '--schema', EXAMPLE_SCHEMA], { out: (text) => (out += text), err: () => undefined });
  return out;
};

const file = (name: string, text: string) => {
  const path = join(root, name);
  writeFileSync(path, text);
  return path;
};

test('add stores a document under the sha256 of its text and prints the hash; list shows it; the server runs it by hash and nothing else', async () => {
  const tags = file('tags.graphql', 'query Tags { tags { name } }\n');
  const added = await persisted('add', tags);
  const [hash, name] = added.trim().split(/\s+/);
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  expect(name).toBe('Tags');
  expect(JSON.parse(readFileSync(join(configDir, 'persisted.json'), 'utf8'))).toEqual({ [hash]: 'query Tags { tags { name } }\n' });
  // adding it again changes nothing
  await persisted('add', tags);
  expect(await persisted('list')).toBe(`${hash}  Tags\n`);

  const server = await startFolio({ schemaDir: EXAMPLE_SCHEMA, configDir, dataDir: join(root, 'data'), host: '127.0.0.1', port: 0, env: { NODE_ENV: 'test' } });
  try {
    const post = (body: unknown) => fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(await (await post({ documentId: hash })).json()).toEqual({ data: { tags: [] } });
    expect((await post({ query: '{ tags { name } }' })).status).toBe(400);
  } finally {
    await server.close();
  }
}, 30_000);

test('a document that does not parse or does not fit the schema is refused naming the file and position, and not stored', async () => {
  const before = readFileSync(join(configDir, 'persisted.json'), 'utf8');
  const broken = file('broken.graphql', 'query {\n  tags { name }\n');
  await expect(persisted('add', broken)).rejects.toThrow(/broken\.graphql:3:1: Syntax Error/);
  const unknown = file('unknown.graphql', 'query {\n  nope\n}\n');
  await expect(persisted('add', unknown)).rejects.toThrow(/unknown\.graphql:2:3: Cannot query field "nope" on type "Query"/);
  expect(readFileSync(join(configDir, 'persisted.json'), 'utf8')).toBe(before);
}, 30_000);

test('without a configured store, both commands say where to set one', async () => {
  const bare = join(root, 'bare');
  mkdirSync(bare);
  await expect(runPersistedCommand(['list', '--config', bare])).rejects.toThrow(/set graphql\.config\.persistedOperations\.store in .*bare\/plugins/);
});
