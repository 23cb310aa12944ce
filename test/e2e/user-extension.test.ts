import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_SCHEMA, startTestServer, type TestServer } from '../support/test-server';

/**
 * A Strapi project's additions to the users-permissions user (`extensions/users-permissions/content-types/user/schema.json`)
 * are part of the user type on both surfaces, as in Strapi; the plugin's own attributes keep their definition.
 */

let root: string;
let schemaDir: string;
let server: TestServer;

const userSchema = (extra: Record<string, unknown>) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
    options: { draftAndPublish: false },
    attributes: {
      username: { type: 'string', minLength: 3, unique: true, required: true },
      // a project cannot make the password public by copying the schema wrong
      password: { type: 'password', minLength: 6 },
      ...extra,
    },
  });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-user-extension-'));
  schemaDir = join(root, 'schema');
  cpSync(EXAMPLE_SCHEMA, schemaDir, { recursive: true });
  const dir = join(schemaDir, 'extensions', 'users-permissions', 'content-types', 'user');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'schema.json'), userSchema({ nickname: { type: 'string' }, picture: { type: 'media', multiple: false, allowedTypes: ['images'] } }));
  server = await startTestServer({ schemaDir });
});
afterAll(async () => {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
});

test('the added attributes are written and read on both surfaces; the password stays private', async () => {
  const created = await fetch(`${server.url}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: JSON.stringify({ username: 'nina', email: 'nina@example.com', password: 'Passw0rd!', nickname: 'Nin' }),
  });
  const user = (await created.json()) as Record<string, unknown>;
  expect(created.status).toBe(201);
  expect(user).toMatchObject({ username: 'nina', nickname: 'Nin' });
  expect(user).not.toHaveProperty('password');

  const rest = (await (await fetch(`${server.url}/api/users?filters[nickname][$eq]=Nin`, { headers: server.asAdmin })).json()) as Array<Record<string, unknown>>;
  expect(rest.map((row) => row.username)).toEqual(['nina']);

  const graphql = await server.gql<{ usersPermissionsUsers: Array<{ nickname: string; picture: unknown }> }>('{ usersPermissionsUsers(filters: { nickname: { eq: "Nin" } }) { nickname picture { url } } }', {}, server.asAdmin);
  expect(graphql.body).toEqual({ data: { usersPermissionsUsers: [{ nickname: 'Nin', picture: null }] } });
  const password = await server.gql('{ usersPermissionsUsers { password } }', {}, server.asAdmin);
  expect(password.status).toBe(400);
});

test('an extension of a plugin type Folio does not serve is named', async () => {
  const strayDir = join(root, 'stray');
  cpSync(EXAMPLE_SCHEMA, strayDir, { recursive: true });
  const dir = join(strayDir, 'extensions', 'email', 'content-types', 'template');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'schema.json'), userSchema({}));
  await expect(startTestServer({ schemaDir: strayDir })).rejects.toThrow(/extensions\/email\/content-types\/template\/schema\.json: plugin::email\.template is not a plugin content type Folio serves/);
});
