import { FULL_ACCESS_TOKEN, type TestServer } from '../support/test-server';
import { bearer, call, type RestError } from '../auth/http';
import { READ_ONLY_TOKEN, registerUser, startAuthServer } from '../auth/auth-server';

/** Strapi's user writes: POST /api/users, PUT and DELETE /api/users/:id, for callers holding user.create|update|destroy. */

let server: TestServer;
beforeAll(async () => {
  server = await startAuthServer();
});
afterAll(() => server.stop());

const admin = bearer(FULL_ACCESS_TOKEN);
type User = Record<string, unknown> & { id: number };
const send = <T = User & RestError>(method: string, path: string, body?: unknown, headers: Record<string, string> = admin) => call<T>(server.url, method, path, { body, headers });
const login = (identifier: string, password: string) => call<{ jwt: string } & RestError>(server.url, 'POST', '/api/auth/local', { body: { identifier, password } });

test('create: 201 with the user (no private attributes); it can sign in; a role is given by id', async () => {
  const created = await send('POST', '/api/users', { username: 'dora', email: 'Dora@Example.com', password: 'Passw0rd!' });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ username: 'dora', email: 'dora@example.com', provider: 'local', confirmed: false, blocked: false });
  expect(JSON.stringify(created.body)).not.toMatch(/password|scrypt/i);
  expect((await login('dora', 'Passw0rd!')).status).toBe(200);
  const role = await server.folio.services.store.collection('up_roles').findOne({ type: 'public' });
  const withRole = await send('POST', '/api/users', { username: 'eve', email: 'eve@example.com', password: 'Passw0rd!', role: role!.id, confirmed: true });
  expect(withRole.status).toBe(201);
  const read = await send<{ role: { type: string } }>('GET', `/api/users/${withRole.body.id}?populate=role`);
  expect(read.body.role.type).toBe('public');
});

test.each([
  ['a taken username', { username: 'dora', email: 'other@example.com', password: 'Passw0rd!' }, 'ApplicationError', 'Username already taken'],
  ['a taken email, in another case', { username: 'dora2', email: 'DORA@example.com', password: 'Passw0rd!' }, 'ApplicationError', 'Email already taken'],
  ['a missing email', { username: 'finn', password: 'Passw0rd!' }, 'ValidationError', 'email is a required field'],
  ['an attribute nobody may set', { username: 'finn', email: 'finn@example.com', password: 'Passw0rd!', provider: 'github' }, 'ValidationError', 'Invalid parameters: provider'],
  ['an unknown role', { username: 'finn', email: 'finn@example.com', password: 'Passw0rd!', role: 99999 }, 'ValidationError', 'Role 99999 not found'],
])('create with %s is a 400 %s and makes no user', async (_, body, name, message) => {
  const before = await send<number>('GET', '/api/users/count');
  const answer = await send('POST', '/api/users', body);
  expect(answer.status).toBe(400);
  expect(answer.body.error).toMatchObject({ status: 400, name, message });
  expect((await send<number>('GET', '/api/users/count')).body).toBe(before.body);
});

test('update: blocking locks the user out at once; a new password replaces the old; email and username stay unique', async () => {
  const { user, headers } = await registerUser(server, 'gus');
  expect((await call(server.url, 'GET', '/api/users/me', { headers })).status).toBe(200);
  const blocked = await send('PUT', `/api/users/${user.id}`, { blocked: true });
  expect(blocked.status).toBe(200);
  expect(blocked.body.blocked).toBe(true);
  expect((await call(server.url, 'GET', '/api/users/me', { headers })).status).toBe(401);
  expect((await login('gus', 'Passw0rd!')).body.error?.message).toBe('Your account has been blocked by an administrator');
  await send('PUT', `/api/users/${user.id}`, { blocked: false, password: 'An0ther-one' });
  expect((await login('gus', 'An0ther-one')).status).toBe(200);
  const clash = await send('PUT', `/api/users/${user.id}`, { email: 'dora@example.com' });
  expect(clash.body.error).toMatchObject({ name: 'ApplicationError', message: 'Email already taken' });
  expect((await send('PUT', `/api/users/${user.id}`, { username: 'gus' })).status).toBe(200);
  expect((await send('PUT', '/api/users/999999', { blocked: true })).status).toBe(404);
});

test('delete: 200 with the user removed; its JWT no longer opens anything', async () => {
  const { user, headers } = await registerUser(server, 'hal');
  const removed = await send('DELETE', `/api/users/${user.id}`);
  expect(removed.status).toBe(200);
  expect(removed.body).toMatchObject({ id: user.id, username: 'hal' });
  expect((await send('GET', `/api/users/${user.id}`)).status).toBe(404);
  expect((await call(server.url, 'GET', '/api/users/me', { headers })).status).toBe(401);
  expect((await send('DELETE', `/api/users/${user.id}`)).status).toBe(404);
});

test('without user.create|update|destroy: 403 for the public, a read-only token and a signed-in user', async () => {
  const { user, headers } = await registerUser(server, 'ivy');
  for (const caller of [{}, bearer(READ_ONLY_TOKEN), headers]) {
    expect((await send('POST', '/api/users', { username: 'x1y', email: 'x1y@example.com', password: 'Passw0rd!' }, caller)).status).toBe(403);
    expect((await send('PUT', `/api/users/${user.id}`, { blocked: true }, caller)).status).toBe(403);
    expect((await send('DELETE', `/api/users/${user.id}`, undefined, caller)).status).toBe(403);
  }
});

test("the same writes over GraphQL, as Strapi's schema has them: create, update and delete by numeric id, under the same permissions and rules", async () => {
  const gql = (query: string, variables: Record<string, unknown>, headers: Record<string, string> = admin) => server.gql<Record<string, { data: Record<string, unknown> | null }>>(query, variables, headers);
  const role = await server.folio.services.store.collection('up_roles').findOne({ type: 'public' });
  const created = await gql(
    'mutation($d: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $d) { data { documentId username email confirmed role { type } } } }',
    { d: { username: 'gina', email: 'Gina@example.com', password: 'Passw0rd!', role: String(role!.id), confirmed: true, publishedAt: null } },
  );
  expect(created.body.errors).toBeUndefined();
  expect(created.body.data!.createUsersPermissionsUser.data).toMatchObject({ username: 'gina', email: 'gina@example.com', confirmed: true, role: { type: 'public' } });
  const { id } = (await send<Array<{ id: number; username: string }>>('GET', '/api/users?filters[username][$eq]=gina')).body[0];
  const updated = await gql('mutation($id: ID!) { updateUsersPermissionsUser(id: $id, data: { blocked: true }) { data { blocked } } }', { id: String(id) });
  expect(updated.body.data!.updateUsersPermissionsUser.data).toEqual({ blocked: true });
  const taken = await gql('mutation { createUsersPermissionsUser(data: { username: "gina", email: "g2@example.com", password: "Passw0rd!" }) { data { id: documentId } } }', {});
  expect(taken.body.errors?.[0].message).toBe('Username already taken');
  const forbidden = await gql('mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { data { username } } }', { id: String(id) }, bearer(READ_ONLY_TOKEN));
  expect(forbidden.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  const deleted = await gql('mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { data { username } } }', { id: String(id) });
  expect(deleted.body.data!.deleteUsersPermissionsUser.data).toEqual({ username: 'gina' });
  expect((await send('GET', `/api/users/${id}`)).status).toBe(404);
});
