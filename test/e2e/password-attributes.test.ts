import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyPassword } from '../../src/documents/password-hash';
import { startTestServer, type TestServer } from '../support/test-server';
import { writeOneTypeSchema } from '../support/one-type-schema';

/** A `password` attribute is stored hashed, as Strapi stores it, and never shown or filtered. */

let schemaDir: string;
let server: TestServer;

beforeAll(async () => {
  schemaDir = mkdtempSync(join(tmpdir(), 'folio-vault-'));
  writeOneTypeSchema(schemaDir, 'vault', 'vaults', { name: { type: 'string' }, secret: { type: 'password', minLength: 8 } });
  server = await startTestServer({ schemaDir, config: { plugins: { 'users-permissions': { config: { roles: {} } } } } });
});
afterAll(async () => {
  await server.stop();
  rmSync(schemaDir, { recursive: true, force: true });
});

const post = async (data: Record<string, unknown>) => {
  const response = await fetch(`${server.url}/api/vaults`, { method: 'POST', headers: { 'content-type': 'application/json', ...server.asAdmin }, body: JSON.stringify({ data }) });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> | null; error?: { message: string } } };
};

test('written over REST and GraphQL, a password is stored as a hash that verifies, and answers never show it', async () => {
  const created = await post({ name: 'rest', secret: 'open-sesame' });
  expect(created.status).toBe(201);
  expect(created.body.data).not.toHaveProperty('secret');
  const viaGraphql = await server.gql<{ createVault: { documentId: string } }>('mutation { createVault(data: { name: "gql", secret: "also-secret" }) { documentId } }', {}, server.asAdmin);
  expect(viaGraphql.body.errors).toBeUndefined();
  const rows = await server.folio.services.store.collection('vaults').find({}, { sort: [['id', 1]] });
  expect(rows.map((row) => row.name)).toEqual(['rest', 'gql']);
  expect(rows[0].secret).not.toBe('open-sesame');
  expect(await verifyPassword('open-sesame', rows[0].secret as string)).toBe(true);
  expect(await verifyPassword('also-secret', rows[1].secret as string)).toBe(true);
  expect(JSON.stringify(rows)).not.toMatch(/open-sesame|also-secret/);
});

test('its length rules apply to the clear text', async () => {
  const short = await post({ name: 'short', secret: 'short' });
  expect(short.status).toBe(400);
  expect(short.body.error!.message).toMatch(/at least 8/);
});
