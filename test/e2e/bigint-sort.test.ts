import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import { startTestServer, type TestServer } from '../support/test-server';
import { writeOneTypeSchema } from '../support/one-type-schema';

/** Big integers sort by number on both surfaces, also for documents written before their sort keys existed. */

let root: string;
let server: TestServer;
const schemaDir = () => join(root, 'schema');
const dataDir = () => join(root, 'data');
// the embedded engine's: the last test writes a legacy row into its files
const start = () => startTestServer({ schemaDir: schemaDir(), dataDir: dataDir(), config: { database: { client: 'embedded' }, plugins: { 'users-permissions': { config: { roles: {} } } } } });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-bigsort-'));
  writeOneTypeSchema(schemaDir(), 'ledger', 'ledgers', { name: { type: 'string' }, big: { type: 'biginteger' } });
  server = await start();
  for (const big of ['-5', 10, '9', '100', '-12', '0', null, '123456789012345678901234567890']) {
    const response = await fetch(`${server.url}/api/ledgers`, { method: 'POST', headers: { 'content-type': 'application/json', ...server.asAdmin }, body: JSON.stringify({ data: { name: String(big), big } }) });
    expect(response.status).toBe(201);
  }
});
afterAll(async () => {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
});

const restOrder = async (sort: string): Promise<unknown[]> => {
  const response = await fetch(`${server.url}/api/ledgers?sort=${sort}`, { headers: server.asAdmin });
  return ((await response.json()) as { data: Array<{ big: unknown }> }).data.map((row) => row.big);
};

test('REST and GraphQL sort big integers by number, not by text', async () => {
  expect(await restOrder('big:asc')).toEqual([null, '-12', '-5', '0', '9', '10', '100', '123456789012345678901234567890']);
  expect(await restOrder('big:desc')).toEqual(['123456789012345678901234567890', '100', '10', '9', '0', '-5', '-12', null]);
  const answer = await server.gql<{ ledgers: Array<{ big: string }> }>('{ ledgers(sort: "big:desc", filters: { big: { notNull: true } }, pagination: { limit: 3 }) { big } }', {}, server.asAdmin);
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data!.ledgers.map((row) => row.big)).toEqual(['123456789012345678901234567890', '100', '10']);
  // the sort key is no attribute: answers never show it
  expect(JSON.stringify(answer.body)).not.toMatch(/_sort_/);
});

test('documents stored before sort keys existed get theirs at start', async () => {
  await server.stop();
  const store = await openStore({ client: 'embedded', options: {} }, dataDir());
  await store.collection('ledgers').insertOne({ id: 500, documentId: 'legacyledger000000000000', _status: 'published', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', publishedAt: '2026-01-01T00:00:00.000Z', name: 'legacy', big: '50' });
  await store.close();
  server = await start();
  expect(await restOrder('big:asc')).toEqual([null, '-12', '-5', '0', '9', '10', '50', '100', '123456789012345678901234567890']);
});
