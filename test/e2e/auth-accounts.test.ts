import type { TestServer } from '../support/test-server';
import { call, bearer, type RestError } from '../auth/http';
import { registerUser, startAuthServer } from '../auth/auth-server';

/** Sign-up, sign-in, `me` and the users endpoints, on REST and GraphQL, with Strapi's answers. */

let server: TestServer;
beforeAll(async () => {
  server = await startAuthServer();
});
afterAll(() => server.stop());

const USER_KEYS = ['id', 'documentId', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt', 'publishedAt'];

describe('REST sign-up and sign-in', () => {
  test('register answers 200 with a JWT and the user in Strapi\'s shape, without private attributes', async () => {
    const answer = await call<{ jwt: string; user: Record<string, unknown> }>(server.url, 'POST', '/api/auth/local/register', {
      body: { username: 'alice', email: 'Alice@Example.com', password: 'Passw0rd!' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.jwt.split('.')).toHaveLength(3);
    expect(Object.keys(answer.body.user)).toEqual(USER_KEYS);
    expect(answer.body.user).toMatchObject({ username: 'alice', email: 'alice@example.com', provider: 'local', confirmed: true, blocked: false });
    expect(JSON.stringify(answer.body)).not.toMatch(/password|scrypt/i);
  });

  test('login by username or by email (case-insensitive) returns the same user', async () => {
    const { user } = await registerUser(server, 'bob');
    for (const identifier of ['bob', 'BOB@example.COM', 'bob@example.com']) {
      const answer = await call<{ jwt: string; user: { id: number } }>(server.url, 'POST', '/api/auth/local', { body: { identifier, password: 'Passw0rd!' } });
      expect(answer.status).toBe(200);
      expect(answer.body.user.id).toBe(user.id);
    }
    const wrongCase = await call<RestError>(server.url, 'POST', '/api/auth/local', { body: { identifier: 'BOB', password: 'Passw0rd!' } });
    expect(wrongCase.status).toBe(400);
  });

  test('a wrong password and an unknown identifier get the same answer', async () => {
    await registerUser(server, 'carol');
    const wrongPassword = await call<RestError>(server.url, 'POST', '/api/auth/local', { body: { identifier: 'carol', password: 'nope-nope' } });
    const unknownUser = await call<RestError>(server.url, 'POST', '/api/auth/local', { body: { identifier: 'nobody', password: 'nope-nope' } });
    const expected = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid identifier or password', details: {} } };
    expect(wrongPassword).toMatchObject({ status: 400, body: expected });
    expect(unknownUser).toMatchObject({ status: 400, body: expected });
  });

  test('a taken username or email is 400 ApplicationError', async () => {
    await registerUser(server, 'dave');
    for (const body of [
      { username: 'dave', email: 'other@example.com', password: 'Passw0rd!' },
      { username: 'dave2', email: 'DAVE@example.com', password: 'Passw0rd!' },
    ]) {
      const answer = await call<RestError>(server.url, 'POST', '/api/auth/local/register', { body });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ status: 400, name: 'ApplicationError', message: 'Email or Username are already taken', details: {} });
    }
  });

  test('missing email, short password and bad email are ValidationErrors listing each problem', async () => {
    const missing = await call<RestError>(server.url, 'POST', '/api/auth/local/register', { body: { username: 'erin', password: 'Passw0rd!' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ name: 'ValidationError', message: 'email is a required field' });
    const short = await call<RestError>(server.url, 'POST', '/api/auth/local/register', { body: { username: 'erin', email: 'erin@example.com', password: '12345' } });
    expect(short.body.error).toMatchObject({ name: 'ValidationError', message: 'password must be at least 6 characters' });
    expect(JSON.stringify(short.body)).not.toMatch(/12345/);
    // Strapi's bound: a long password is refused, not hashed
    const long = await call<RestError>(server.url, 'POST', '/api/auth/local/register', { body: { username: 'erin', email: 'erin@example.com', password: 'x'.repeat(100_000) } });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ name: 'ValidationError', message: 'Password must be less than 73 bytes' });
    expect((await call(server.url, 'POST', '/api/auth/local/register', { body: { username: 'erin', email: 'erin@example.com', password: 'x'.repeat(72) } })).status).toBe(200);
    const both = await call<RestError>(server.url, 'POST', '/api/auth/local/register', { body: { username: 'erin', email: 'not-an-email', password: '1' } });
    expect(both.body.error.message).toBe('2 errors occurred');
    expect((both.body.error.details as { errors: Array<{ path: string[] }> }).errors.map((issue) => issue.path)).toEqual([['email'], ['password']]);
  });

  test('registration cannot set role, confirmed, blocked, provider or private attributes', async () => {
    for (const extra of [{ role: 1 }, { confirmed: false }, { blocked: true }, { provider: 'github' }, { resetPasswordToken: 'x' }, { confirmationToken: 'x' }]) {
      const answer = await call<RestError>(server.url, 'POST', '/api/auth/local/register', {
        body: { username: 'mallory', email: 'mallory@example.com', password: 'Passw0rd!', ...extra },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ status: 400, name: 'ValidationError', message: `Invalid parameters: ${Object.keys(extra)[0]}`, details: {} });
    }
  });

  test('malformed JSON is Strapi\'s SyntaxError envelope; an empty body is a validation error', async () => {
    const malformed = await call<RestError>(server.url, 'POST', '/api/auth/local', { rawBody: '{"identifier":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.name).toBe('SyntaxError');
    expect(malformed.body.error.details).toEqual({});
    const empty = await call<RestError>(server.url, 'POST', '/api/auth/local', { rawBody: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('2 errors occurred');
  });

  test('a blocked user cannot sign in, and their JWT is refused', async () => {
    const { user, headers } = await registerUser(server, 'frank');
    await server.folio.services.store.collection('up_users').updateOne({ id: user.id }, { $set: { blocked: true } });
    const login = await call<RestError>(server.url, 'POST', '/api/auth/local', { body: { identifier: 'frank', password: 'Passw0rd!' } });
    expect(login.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'Your account has been blocked by an administrator' });
    expect((await call(server.url, 'GET', '/api/users/me', { headers })).status).toBe(401);
    expect((await server.gql('{ me { username } }', {}, headers)).status).toBe(401);
  });
});

describe('GraphQL register, login and me', () => {
  test('register and login mutations return a JWT that works on both surfaces', async () => {
    const registered = await server.gql<{ register: { jwt: string; user: { username: string; email: string; role: { type: string } } } }>(
      'mutation { register(input: { username: "gina", email: "gina@example.com", password: "Passw0rd!" }) { jwt user { username email role { type name } } } }',
    );
    expect(registered.body.errors).toBeUndefined();
    expect(registered.body.data!.register.user).toEqual({ username: 'gina', email: 'gina@example.com', role: { type: 'authenticated', name: 'Authenticated' } });

    const login = await server.gql<{ login: { jwt: string; user: { username: string } } }>(
      'mutation { login(input: { identifier: "gina@example.com", password: "Passw0rd!" }) { jwt user { username email } } }',
    );
    expect(login.body.data!.login.user).toEqual({ username: 'gina', email: 'gina@example.com' });

    const me = await server.gql('{ me { username email confirmed blocked role { type } } }', {}, bearer(login.body.data!.login.jwt));
    expect(me.body).toEqual({ data: { me: { username: 'gina', email: 'gina@example.com', confirmed: true, blocked: false, role: { type: 'authenticated' } } } });
    const restMe = await call<{ username: string }>(server.url, 'GET', '/api/users/me', { headers: bearer(registered.body.data!.register.jwt) });
    expect(restMe.status).toBe(200);
    expect(restMe.body.username).toBe('gina');
  });

  test('a bad login is a BAD_USER_INPUT error with Strapi\'s message, in a 200', async () => {
    const answer = await server.gql('mutation { login(input: { identifier: "gina", password: "wrong-one" }) { jwt } }');
    expect(answer.status).toBe(200);
    expect(answer.body.errors![0]).toMatchObject({
      message: 'Invalid identifier or password',
      extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message: 'Invalid identifier or password' } },
    });
  });

  test('me is refused to the public and null for an API token', async () => {
    const publicMe = await server.gql('{ me { username } }');
    expect(publicMe.body.errors![0].extensions!.code).toBe('FORBIDDEN');
    expect((await server.gql('{ me { username } }', {}, server.asAdmin)).body).toEqual({ data: { me: null } });
  });

  test('UsersPermissionsMe and the user type expose no private attribute', async () => {
    for (const query of ['{ me { password } }', '{ usersPermissionsUsers { password } }', '{ usersPermissionsUsers { resetPasswordToken } }', '{ usersPermissionsUsers { confirmationToken } }']) {
      const answer = await server.gql(query, {}, server.asAdmin);
      expect(answer.status).toBe(400);
      expect(answer.body.errors![0].message).toMatch(/Cannot query field/);
    }
  });
});

describe('/api/users', () => {
  test('answer bare JSON behind plugin::users-permissions.user permissions', async () => {
    const { user, headers } = await registerUser(server);
    expect((await call<RestError>(server.url, 'GET', '/api/users')).body.error).toEqual({ status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} });
    expect((await call(server.url, 'GET', '/api/users', { headers })).status).toBe(403);
    expect((await call(server.url, 'GET', '/api/users/me')).status).toBe(403);

    const list = await call<Array<Record<string, unknown>>>(server.url, 'GET', '/api/users', { headers: server.asAdmin });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.every((row) => Object.keys(row).join() === USER_KEYS.join())).toBe(true);

    const count = await call<number>(server.url, 'GET', '/api/users/count', { headers: server.asAdmin });
    expect(count.body).toBe(list.body.length);

    const one = await call<Record<string, unknown>>(server.url, 'GET', `/api/users/${user.id}`, { headers: server.asAdmin });
    expect(one.body).toMatchObject({ id: user.id, documentId: user.documentId });
    expect((await call(server.url, 'GET', '/api/users/999999', { headers: server.asAdmin })).status).toBe(404);

    const me = await call<Record<string, unknown>>(server.url, 'GET', '/api/users/me?populate=role', { headers });
    expect(me.body).toMatchObject({ id: user.id, role: { type: 'authenticated', name: 'Authenticated' } });
    expect((await call(server.url, 'GET', '/api/users/me', { headers: server.asAdmin })).status).toBe(401);
  });

  test('filters, sort and pagination; private attributes refused with 400', async () => {
    await registerUser(server, 'zed');
    await registerUser(server, 'yan');
    const filtered = await call<Array<{ username: string }>>(server.url, 'GET', '/api/users?filters[username][$in][0]=zed&filters[username][$in][1]=yan&sort=username:desc', {
      headers: server.asAdmin,
    });
    expect(filtered.body.map((row) => row.username)).toEqual(['zed', 'yan']);
    const notBlocked = await call<number>(server.url, 'GET', '/api/users/count?filters[blocked][$eq]=false&filters[username][$eq]=zed', { headers: server.asAdmin });
    expect(notBlocked.body).toBe(1);
    const paged = await call<unknown[]>(server.url, 'GET', '/api/users?pagination[pageSize]=1&pagination[page]=2', { headers: server.asAdmin });
    expect(paged.body).toHaveLength(1);
    for (const query of ['filters[password][$startsWith]=scrypt', 'filters[resetPasswordToken][$null]=true', 'sort=password', 'sort=confirmationToken:desc', 'populate=password', 'filters[role][users][password][$eq]=x']) {
      const answer = await call<RestError>(server.url, 'GET', `/api/users?${query}`, { headers: server.asAdmin });
      expect({ query, status: answer.status, name: answer.body.error?.name }).toEqual({ query, status: 400, name: 'ValidationError' });
    }
  });

  test("reads are compiled onto the schema's user queries, as content routes are: fields, nested populate, one permission check first", async () => {
    const { user } = await registerUser(server, 'xia');
    const fields = await call<Array<Record<string, unknown>>>(server.url, 'GET', '/api/users?fields[0]=username&filters[username][$eq]=xia', { headers: server.asAdmin });
    expect(fields.body).toEqual([{ id: user.id, documentId: user.documentId, username: 'xia' }]);
    const withRole = await call<Record<string, unknown>>(server.url, 'GET', `/api/users/${user.id}?fields[0]=username&populate[role][fields][0]=type`, { headers: server.asAdmin });
    expect(withRole.body).toEqual({ id: user.id, documentId: user.documentId, username: 'xia', role: { id: expect.any(Number), documentId: expect.any(String), type: 'authenticated' } });
    // a caller without user.findOne learns nothing, not even whether the id exists
    for (const path of [`/api/users/${user.id}`, '/api/users/999999', '/api/users/abc']) expect((await call(server.url, 'GET', path)).status).toBe(403);
    const unknownField = await call<RestError>(server.url, 'GET', '/api/users?fields[0]=password', { headers: server.asAdmin });
    expect(unknownField.status).toBe(400);
  });
});
