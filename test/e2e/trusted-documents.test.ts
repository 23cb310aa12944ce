import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFolio, type StartedFolio } from '../../src/app/start-folio';
import { EXAMPLE_SCHEMA, FULL_ACCESS_TOKEN } from '../support/test-server';

/** Trusted documents: operations by hash from a store file; with arbitrary operations off, nothing else on /graphql, REST untouched. */

const QUERY = '{ tags { name } }';
const HASH = createHash('sha256').update(QUERY).digest('hex');

let root: string;
let server: StartedFolio;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-trusted-'));
  const configDir = join(root, 'config');
  mkdirSync(configDir);
  writeFileSync(join(configDir, 'persisted.json'), JSON.stringify({ [HASH]: QUERY }));
  writeFileSync(
    join(configDir, 'plugins.json'),
    JSON.stringify({
      graphql: { config: { persistedOperations: { store: 'persisted.json', allowArbitraryOperations: false } } },
      'users-permissions': { config: { roles: { public: { permissions: ['api::tag.tag.find'] } } } },
    }),
  );
  writeFileSync(join(configDir, 'admin.json'), JSON.stringify({ apiTokens: [{ name: 'admin', type: 'full-access', accessKey: FULL_ACCESS_TOKEN }] }));
  server = await startFolio({ schemaDir: EXAMPLE_SCHEMA, configDir, dataDir: join(root, 'data'), host: '127.0.0.1', port: 0, env: { NODE_ENV: 'test' } });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const post = (body: unknown) => fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('a persisted operation runs by its hash (Apollo form and documentId); any other document is refused; REST still runs', async () => {
  const apollo = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: HASH } } });
  expect(await apollo.json()).toEqual({ data: { tags: [] } });
  const byId = await post({ documentId: HASH });
  expect(await byId.json()).toEqual({ data: { tags: [] } });
  const arbitrary = await post({ query: '{ tags { name weight } }' });
  expect(arbitrary.status).toBe(400);
  const unknown = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } });
  expect(((await unknown.json()) as { errors: Array<{ message: string }> }).errors[0].message).toMatch(/PersistedQueryNotFound|not found/i);
  expect((await fetch(`${server.url}/api/tags`)).status).toBe(200);
});

test('a store file that cannot be read stops start-up naming it', async () => {
  const configDir = join(root, 'broken-config');
  mkdirSync(configDir);
  writeFileSync(join(configDir, 'plugins.json'), JSON.stringify({ graphql: { config: { persistedOperations: { store: 'missing.json' } } } }));
  await expect(startFolio({ schemaDir: EXAMPLE_SCHEMA, configDir, dataDir: join(root, 'data2'), host: '127.0.0.1', port: 0, env: { NODE_ENV: 'test' } })).rejects.toThrow(
    /graphql\.config\.persistedOperations\.store could not be read \(.*missing\.json\)/,
  );
});
