import { FULL_ACCESS_TOKEN, type TestServer } from '../support/test-server';
import { bearer, call, type RestError } from '../auth/http';
import { registerUser, startAuthServer } from '../auth/auth-server';

/** Changing one's password, as Strapi's `POST /api/auth/change-password` and `changePassword` mutation. */

let server: TestServer;
beforeAll(async () => {
  server = await startAuthServer();
});
afterAll(() => server.stop());

const login = (identifier: string, password: string) => call<{ jwt: string }>(server.url, 'POST', '/api/auth/local', { body: { identifier, password } });
const changeOverRest = (headers: Record<string, string>, body: unknown) => call<{ jwt: string; user: Record<string, unknown> } & RestError>(server.url, 'POST', '/api/auth/change-password', { headers, body });

describe('REST', () => {
  test('a signed-in user changes the password: a new JWT, the user, and only the new password signs in', async () => {
    const { headers, user } = await registerUser(server, 'pat');
    const answer = await changeOverRest(headers, { currentPassword: 'Passw0rd!', password: 'N3w-secret', passwordConfirmation: 'N3w-secret' });
    expect(answer.status).toBe(200);
    expect(answer.body.jwt.split('.')).toHaveLength(3);
    expect(answer.body.user).toMatchObject({ id: user.id, username: 'pat' });
    expect(JSON.stringify(answer.body)).not.toMatch(/password|scrypt/i);
    expect((await login('pat', 'Passw0rd!')).status).toBe(400);
    expect((await login('pat', 'N3w-secret')).status).toBe(200);
    const me = await call<{ username: string }>(server.url, 'GET', '/api/users/me', { headers: bearer(answer.body.jwt) });
    expect(me.body.username).toBe('pat');
  });

  test.each([
    ['a wrong current password', { currentPassword: 'not-it-at-all', password: 'N3w-secret', passwordConfirmation: 'N3w-secret' }, 'The provided current password is invalid'],
    ['a confirmation that differs', { currentPassword: 'Passw0rd!', password: 'N3w-secret', passwordConfirmation: 'N3w-secreT' }, 'Passwords do not match'],
    ['the same password again', { currentPassword: 'Passw0rd!', password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!' }, 'Your new password must be different than your current password'],
    ['a short password', { currentPassword: 'Passw0rd!', password: 'short', passwordConfirmation: 'short' }, 'password must be at least 6 characters'],
    ['a password over 72 bytes', { currentPassword: 'Passw0rd!', password: 'é'.repeat(37), passwordConfirmation: 'é'.repeat(37) }, 'Password must be less than 73 bytes'],
    ['a missing field', { currentPassword: 'Passw0rd!', password: 'N3w-secret' }, 'passwordConfirmation is a required field'],
  ])('%s is a 400 ValidationError and the password stays', async (_, body, message) => {
    const { headers, user } = await registerUser(server);
    const answer = await changeOverRest(headers, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ status: 400, name: 'ValidationError', message });
    expect((await login(user.username, 'Passw0rd!')).status).toBe(200);
  });

  test('the public is forbidden; an API token is nobody\'s account', async () => {
    const body = { currentPassword: 'Passw0rd!', password: 'N3w-secret', passwordConfirmation: 'N3w-secret' };
    expect((await changeOverRest({}, body)).status).toBe(403);
    const token = await changeOverRest(bearer(FULL_ACCESS_TOKEN), body);
    expect(token.status).toBe(400);
    expect(token.body.error).toMatchObject({ name: 'ApplicationError', message: 'You must be authenticated to reset your password' });
  });
});

describe('GraphQL', () => {
  const mutation = 'mutation($c: String!, $p: String!, $q: String!) { changePassword(currentPassword: $c, password: $p, passwordConfirmation: $q) { jwt user { username } } }';

  test('changePassword answers like the REST route', async () => {
    const { headers } = await registerUser(server, 'quinn');
    const answer = await server.gql<{ changePassword: { jwt: string; user: { username: string } } }>(mutation, { c: 'Passw0rd!', p: 'N3w-secret', q: 'N3w-secret' }, headers);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data!.changePassword.user.username).toBe('quinn');
    expect((await login('quinn', 'N3w-secret')).status).toBe(200);
    const wrong = await server.gql(mutation, { c: 'Passw0rd!', p: 'x-other-1', q: 'x-other-1' }, headers);
    expect(wrong.body.errors![0]).toMatchObject({ message: 'The provided current password is invalid', extensions: { code: 'BAD_USER_INPUT' } });
    const anonymous = await server.gql(mutation, { c: 'Passw0rd!', p: 'N3w-secret', q: 'N3w-secret' });
    expect(anonymous.body.errors![0].extensions!.code).toBe('FORBIDDEN');
  });
});
