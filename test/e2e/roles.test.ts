import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPlugins, FULL_ACCESS_TOKEN, startTestServer, type TestServer } from '../support/test-server';
import { bearer, call } from '../auth/http';
import { PUBLIC_READS } from '../auth/auth-server';
import { PERMISSION_CONTENT_TYPE } from '../../src/users/users-content-types';

/**
 * Roles and their permissions as Strapi's GraphQL serves them: `UsersPermissionsRole.permissions`,
 * `createUsersPermissionsRole`, `updateUsersPermissionsRole`, `deleteUsersPermissionsRole`. Roles the
 * configuration lists are its own; the others are the API's, and what they grant holds from the next
 * request on, and after a restart.
 */

const EDITOR = ['api::article.article.find', 'api::article.article.update'];
const CONFIG = {
  plugins: defaultPlugins({
    'users-permissions': {
      config: {
        jwtSecret: 'test-jwt-secret-that-is-long-enough-0123456789',
        roles: { public: { permissions: PUBLIC_READS }, editor: { description: 'Edits articles', permissions: EDITOR } },
      },
    },
  }),
};

let dataDir: string;
let server: TestServer;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-roles-'));
  server = await startTestServer({ config: CONFIG, dataDir });
});
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const admin = bearer(FULL_ACCESS_TOKEN);
type Role = { documentId: string; name: string; type: string; description: string | null; permissions: Array<{ action: string }> };

const roles = async (): Promise<Map<string, Role>> => {
  const answer = await server.gql<{ usersPermissionsRoles: Role[] }>('{ usersPermissionsRoles { documentId name type description permissions(pagination: { limit: -1 }) { action } } }', {}, admin);
  expect(answer.body.errors).toBeUndefined();
  return new Map(answer.body.data!.usersPermissionsRoles.map((role) => [role.type, role]));
};
const actionsOf = (role: Role | undefined) => (role?.permissions ?? []).map(({ action }) => action).sort();

const mutate = (query: string, variables: Record<string, unknown>, headers = admin) =>
  server.gql<Record<string, { ok: boolean } | null>>(query, variables, headers);
const CREATE = 'mutation($data: UsersPermissionsRoleInput!) { createUsersPermissionsRole(data: $data) { ok } }';
const UPDATE = 'mutation($id: ID!, $data: UsersPermissionsRoleInput!) { updateUsersPermissionsRole(id: $id, data: $data) { ok } }';
const DELETE = 'mutation($id: ID!) { deleteUsersPermissionsRole(id: $id) { ok } }';

const signUp = async (name: string) => {
  const answer = await call<{ jwt: string; user: { id: number } }>(server.url, 'POST', '/api/auth/local/register', {
    body: { username: name, email: `${name}@example.com`, password: 'Passw0rd!' },
  });
  expect(answer.status).toBe(200);
  return { id: answer.body.user.id, headers: bearer(answer.body.jwt) };
};
const roleIdOf = async (type: string) => (await server.folio.services.store.collection('up_roles').findOne({ type }))!.id as number;

test("every role with what it grants: the configuration's, and Strapi's defaults for Authenticated", async () => {
  const all = await roles();
  expect(actionsOf(all.get('public'))).toEqual([...PUBLIC_READS].sort());
  expect(actionsOf(all.get('authenticated'))).toEqual(['plugin::users-permissions.auth.changePassword', 'plugin::users-permissions.user.me']);
  expect(all.get('editor')).toMatchObject({ name: 'Editor', description: 'Edits articles' });
  expect(actionsOf(all.get('editor'))).toEqual(EDITOR);
});

test('a role made through the API grants at once; changing its permissions changes what its users may do on the next request', async () => {
  const created = await mutate(CREATE, { data: { name: 'Reviewer', description: 'Reads drafts', permissions: ['api::article.article.find'] } });
  expect(created.body).toEqual({ data: { createUsersPermissionsRole: { ok: true } } });
  const reviewer = (await roles()).get('reviewer');
  expect(reviewer).toMatchObject({ name: 'Reviewer', description: 'Reads drafts' });
  expect(actionsOf(reviewer)).toEqual(['api::article.article.find']);

  const user = await signUp('rita');
  expect((await call(server.url, 'PUT', `/api/users/${user.id}`, { body: { role: await roleIdOf('reviewer') }, headers: admin })).status).toBe(200);
  expect((await call(server.url, 'GET', '/api/articles', { headers: user.headers })).status).toBe(200);
  expect((await call(server.url, 'GET', '/api/tags', { headers: user.headers })).status).toBe(403);

  // by its numeric id, as Strapi takes it
  const updated = await mutate(UPDATE, { id: String(await roleIdOf('reviewer')), data: { permissions: ['api::article.article.find', 'api::tag.tag.find'] } });
  expect(updated.body.errors).toBeUndefined();
  expect((await call(server.url, 'GET', '/api/tags', { headers: user.headers })).status).toBe(200);
  expect((await server.gql('{ tags { name } }', {}, user.headers)).body.errors).toBeUndefined();

  // a change of name alone keeps the permissions (Strapi would drop them all)
  expect((await mutate(UPDATE, { id: reviewer!.documentId, data: { name: 'Senior reviewer' } })).body.errors).toBeUndefined();
  const renamed = (await roles()).get('reviewer');
  expect(renamed?.name).toBe('Senior reviewer');
  expect(actionsOf(renamed)).toEqual(['api::article.article.find', 'api::tag.tag.find']);

  expect((await mutate(UPDATE, { id: reviewer!.documentId, data: { permissions: [] } })).body.errors).toBeUndefined();
  expect((await call(server.url, 'GET', '/api/articles', { headers: user.headers })).status).toBe(403);
});

test("Authenticated, which the configuration leaves out, is the API's: taking `me` away is felt at once", async () => {
  const user = await signUp('sam');
  expect((await call(server.url, 'GET', '/api/users/me', { headers: user.headers })).status).toBe(200);
  const authenticated = (await roles()).get('authenticated')!;
  expect((await mutate(UPDATE, { id: authenticated.documentId, data: { permissions: ['plugin::users-permissions.auth.changePassword'] } })).body.errors).toBeUndefined();
  expect((await call(server.url, 'GET', '/api/users/me', { headers: user.headers })).status).toBe(403);
  const restored = await mutate(UPDATE, { id: authenticated.documentId, data: { permissions: ['plugin::users-permissions.user.me', 'plugin::users-permissions.auth.changePassword'] } });
  expect(restored.body.errors).toBeUndefined();
  expect((await call(server.url, 'GET', '/api/users/me', { headers: user.headers })).status).toBe(200);
});

test.each([
  ['a role the configuration lists', async () => mutate(UPDATE, { id: (await roles()).get('editor')!.documentId, data: { permissions: [] } }), 'BAD_USER_INPUT', /editor role is declared in .*users-permissions\.config\.roles\.editor/],
  ['a misspelled permission', async () => mutate(CREATE, { data: { name: 'Typo', permissions: ['api::artcle.article.find'] } }), 'BAD_USER_INPUT', /did you mean "api::article\.article\.find"/],
  ['an empty body', async () => mutate(CREATE, { data: {} }), 'BAD_USER_INPUT', /Request body cannot be empty/],
  ['users, which roles are given through the user', async () => mutate(CREATE, { data: { name: 'Crowd', users: ['1'] } }), 'BAD_USER_INPUT', /Invalid parameters: users/],
  ['a name too short', async () => mutate(CREATE, { data: { name: 'ab' } }), 'BAD_USER_INPUT', /name/],
  ['the Public role', async () => mutate(DELETE, { id: String(await roleIdOf('public')) }), 'BAD_USER_INPUT', /Cannot delete public role/],
  ['a role that does not exist', async () => mutate(DELETE, { id: '987654' }), 'NOT_FOUND', /Role not found/],
])('%s is refused with a clear error, and nothing changes', async (_, attempt, code, message) => {
  const before = await roles();
  const answer = await attempt();
  expect(answer.body.errors?.[0]).toMatchObject({ extensions: { code } });
  expect(answer.body.errors?.[0].message).toMatch(message);
  const after = await roles();
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  for (const [type, role] of after) expect(actionsOf(role)).toEqual(actionsOf(before.get(type)));
});

test('role administration needs its own permissions: a signed-in user without them is refused', async () => {
  const user = await signUp('tom');
  const answer = await mutate(CREATE, { data: { name: 'Mine', permissions: ['api::article.article.delete'] } }, user.headers);
  expect(answer.body.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
  expect((await roles()).has('mine')).toBe(false);
});

test("deleting a role moves its users to the Public role, as Strapi does", async () => {
  expect((await mutate(CREATE, { data: { name: 'Temp', permissions: ['api::category.category.find'] } })).body.errors).toBeUndefined();
  const user = await signUp('una');
  await call(server.url, 'PUT', `/api/users/${user.id}`, { body: { role: await roleIdOf('temp') }, headers: admin });
  expect((await mutate(DELETE, { id: (await roles()).get('temp')!.documentId })).body).toEqual({ data: { deleteUsersPermissionsRole: { ok: true } } });
  expect((await roles()).has('temp')).toBe(false);
  const read = await call<{ role: { type: string } }>(server.url, 'GET', `/api/users/${user.id}?populate=role`, { headers: admin });
  expect(read.body.role.type).toBe('public');
  expect(await server.folio.services.store.collection('up_permissions').countDocuments({})).toBe(
    [...(await roles()).values()].reduce((sum, role) => sum + role.permissions.length, 0),
  );
});

test('after a restart: roles made through the API keep their grants; a configured role has what the configuration says, each action once', async () => {
  const { id } = await signUp('vic');
  // what two instances seeding together, or a write behind Folio's back, may leave: a second row of an action, one the configuration does not list
  const editor = (await roles()).get('editor')!;
  for (const action of [EDITOR[0], 'api::tag.tag.delete']) await server.folio.services.documents.create(PERMISSION_CONTENT_TYPE, { action, role: editor.documentId }, { status: 'published' });
  await call(server.url, 'PUT', `/api/users/${id}`, { body: { role: await roleIdOf('reviewer') }, headers: admin });
  expect((await mutate(UPDATE, { id: (await roles()).get('reviewer')!.documentId, data: { permissions: ['api::category.category.find'] } })).body.errors).toBeUndefined();
  await server.stop();
  server = await startTestServer({ config: CONFIG, dataDir });
  const all = await roles();
  expect(actionsOf(all.get('reviewer'))).toEqual(['api::category.category.find']);
  expect(actionsOf(all.get('editor'))).toEqual(EDITOR);
  expect(await server.folio.services.store.collection('up_permissions').countDocuments({ role: editor.documentId })).toBe(EDITOR.length);
  const login = await call<{ jwt: string }>(server.url, 'POST', '/api/auth/local', { body: { identifier: 'vic', password: 'Passw0rd!' } });
  expect((await call(server.url, 'GET', '/api/categories', { headers: bearer(login.body.jwt) })).status).toBe(200);
  expect((await call(server.url, 'GET', '/api/articles', { headers: bearer(login.body.jwt) })).status).toBe(403);
});

describe("REST: Strapi's /api/users-permissions role routes", () => {
  type Nested = Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }>;
  const rest = <T>(method: string, path: string, body?: unknown, headers = admin) => call<T>(server.url, method, `/api/users-permissions${path}`, { body, headers });

  test('lists roles by name with their number of users, and one role with every action, enabled or not', async () => {
    const list = await rest<{ roles: Array<{ id: number; name: string; type: string; nb_users: number }> }>('GET', '/roles');
    expect(list.status).toBe(200);
    const names = list.body.roles.map(({ name }) => name);
    expect(names).toEqual([...names].sort());
    expect(list.body.roles.find(({ type }) => type === 'public')?.nb_users).toEqual(expect.any(Number));
    const editor = list.body.roles.find(({ type }) => type === 'editor')!;
    const one = await rest<{ role: { type: string; permissions: Nested } }>('GET', `/roles/${editor.id}`);
    expect(one.body.role.type).toBe('editor');
    expect(one.body.role.permissions['api::article'].controllers.article).toMatchObject({ find: { enabled: true }, update: { enabled: true }, delete: { enabled: false } });
    const all = await rest<{ permissions: Nested }>('GET', '/permissions');
    expect(all.body.permissions['api::tag'].controllers.tag.find).toEqual({ enabled: false, policy: '' });
    expect((await rest('GET', '/roles/987654')).status).toBe(404);
  });

  test("makes, changes and deletes a role with Strapi's nested permissions body", async () => {
    const created = await rest('POST', '/roles', { name: 'Tagger', description: 'Tags', permissions: { 'api::tag': { controllers: { tag: { find: { enabled: true }, create: { enabled: true }, delete: { enabled: false } } } } } });
    expect(created).toMatchObject({ status: 200, body: { ok: true } });
    expect(actionsOf((await roles()).get('tagger'))).toEqual(['api::tag.tag.create', 'api::tag.tag.find']);
    const id = await roleIdOf('tagger');
    expect((await rest('PUT', `/roles/${id}`, { permissions: { 'api::tag': { controllers: { tag: { find: { enabled: true } } } } } })).body).toEqual({ ok: true });
    expect(actionsOf((await roles()).get('tagger'))).toEqual(['api::tag.tag.find']);
    expect((await rest('DELETE', `/roles/${id}`)).body).toEqual({ ok: true });
    expect((await roles()).has('tagger')).toBe(false);
  });

  test("refusals in Strapi's envelope: no credentials, a configured role, a bad permission", async () => {
    expect((await rest('GET', '/roles', undefined, {})).status).toBe(403);
    expect((await rest('POST', '/roles', { name: 'Anyone' }, {})).status).toBe(403);
    const configured = await rest<{ error: { name: string; message: string } }>('DELETE', `/roles/${await roleIdOf('editor')}`);
    expect(configured.status).toBe(400);
    expect(configured.body.error).toMatchObject({ name: 'ApplicationError', message: expect.stringMatching(/declared in/) });
    const bad = await rest<{ data: null; error: { name: string; details: { errors: Array<{ path: string[] }> } } }>('POST', '/roles', { name: 'Typo', permissions: ['api::tag.tag.fnd'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ data: null, error: { name: 'ValidationError', details: { errors: [{ path: ['permissions', '0'] }] } } });
  });
});
