import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_SCHEMA, type TestServer } from '../support/test-server';
import { registerUser, startAuthServer } from '../auth/auth-server';
import { call, type RestError } from '../auth/http';

/**
 * Private attributes (`private: true`, `password` types, users' password and tokens) are never returned,
 * filtered, sorted or selected, at any depth, through relations to users included: asking is a 400.
 */

let schemaDir: string;
let server: TestServer;
let reader: Record<string, string>;

const NOTE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: {
    text: { type: 'string' },
    secret: { type: 'string', private: true },
    pin: { type: 'password' },
    owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
    readers: { type: 'relation', relation: 'manyToMany', target: 'plugin::users-permissions.user' },
  },
};

beforeAll(async () => {
  schemaDir = mkdtempSync(join(tmpdir(), 'folio-private-'));
  cpSync(EXAMPLE_SCHEMA, schemaDir, { recursive: true });
  mkdirSync(join(schemaDir, 'api', 'note', 'content-types', 'note'), { recursive: true });
  writeFileSync(join(schemaDir, 'api', 'note', 'content-types', 'note', 'schema.json'), JSON.stringify(NOTE_SCHEMA));
  server = await startAuthServer({
    schemaDir,
    roles: {
      public: { permissions: ['api::note.note.find'] },
      authenticated: { permissions: ['api::note.note.find', 'plugin::users-permissions.user.find'] },
    },
  });
  const owner = await registerUser(server, 'owner');
  const other = await registerUser(server, 'other');
  reader = other.headers;
  const created = await server.gql(
    `mutation { createNote(data: { text: "hi", secret: "s3cret", pin: "1234", owner: "${owner.user.documentId}", readers: ["${owner.user.documentId}", "${other.user.documentId}"] }) { text } }`,
    {},
    server.asAdmin,
  );
  expect(created.body).toEqual({ data: { createNote: { text: 'hi' } } });
});

afterAll(async () => {
  await server.stop();
  rmSync(schemaDir, { recursive: true, force: true });
});

test('a relation to users needs find on users', async () => {
  const answer = await server.gql('{ notes { text owner { username } } }');
  expect(answer.body.errors![0].extensions!.code).toBe('FORBIDDEN');
  expect((await server.gql('{ notes { text owner { username } } }', {}, reader)).body).toEqual({ data: { notes: [{ text: 'hi', owner: { username: 'owner' } }] } });
});

test('everything a reader may select carries no secret, at any depth', async () => {
  const userFields = 'documentId username email provider confirmed blocked createdAt updatedAt publishedAt';
  const answer = await server.gql(
    `{ notes { documentId text createdAt owner { ${userFields} } readers { ${userFields} } readers_connection { nodes { ${userFields} } } } usersPermissionsUsers { ${userFields} } }`,
    {},
    server.asAdmin,
  );
  expect(answer.body.errors).toBeUndefined();
  const text = JSON.stringify(answer.body);
  for (const secret of ['s3cret', '1234"', 'scrypt', 'Passw0rd']) expect(text).not.toContain(secret);
});

test.each([
  ['a private attribute', '{ notes { secret } }'],
  ['a password attribute', '{ notes { pin } }'],
  ['a user\'s password through a relation', '{ notes { owner { password } } }'],
  ['a user\'s reset token through a to-many relation', '{ notes { readers { resetPasswordToken } } }'],
  ['a user\'s confirmation token in a connection', '{ notes { readers_connection { nodes { confirmationToken } } } }'],
  ['a private filter', '{ notes(filters: { secret: { eq: "s3cret" } }) { text } }'],
  ['a password filter', '{ notes(filters: { pin: { eq: "1234" } }) { text } }'],
  ['a user\'s password filter through a relation', '{ notes(filters: { owner: { password: { startsWith: "scrypt" } } }) { text } }'],
  ['a nested logical filter on a user\'s token', '{ notes(filters: { or: [{ readers: { and: [{ confirmationToken: { null: false } }] } }] }) { text } }'],
  ['a relation argument filter on a private user attribute', '{ notes { readers(filters: { password: { null: false } }) { username } } }'],
])('%s is a 400 validation error', async (_, query) => {
  const answer = await server.gql(query, {}, server.asAdmin);
  expect(answer.status).toBe(400);
  expect(answer.body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
});

test('a private filter passed in variables is refused too', async () => {
  const answer = await server.gql('query($f: NoteFiltersInput) { notes(filters: $f) { text } }', { f: { owner: { password: { eq: 'x' } } } }, server.asAdmin);
  expect(answer.status).toBe(400);
  expect(answer.body.data).toBeUndefined();
});

test.each([
  ['a private attribute', '{ notes(sort: "secret") { text } }', 'secret'],
  ['a password attribute', '{ notes(sort: ["text", "pin:desc"]) { text } }', 'pin'],
  ['a user\'s password in a relation', '{ notes { readers(sort: "password") { username } } }', 'password'],
  ['a user\'s reset token at the root', '{ usersPermissionsUsers(sort: "resetPasswordToken") { username } }', 'resetPasswordToken'],
])('sorting by %s is refused', async (_, query, key) => {
  const answer = await server.gql(query, {}, server.asAdmin);
  expect(answer.body.errors![0]).toMatchObject({ message: `Invalid key ${key}`, extensions: { code: 'BAD_USER_INPUT' } });
  expect(JSON.stringify(answer.body)).not.toContain('scrypt');
});

describe('REST', () => {
  test('populating the users\' roles needs find on roles', async () => {
    expect((await call(server.url, 'GET', '/api/notes?populate[readers][populate]=*', { headers: reader })).status).toBe(403);
  });

  test('populated users carry no secret, whatever is populated', async () => {
    for (const [query, headers] of [['populate=*', reader], ['populate=owner', reader], ['populate[owner][fields][0]=username', reader], ['populate[readers][populate]=*', server.asAdmin]] as const) {
      const answer = await call<{ data: Array<Record<string, unknown>> }>(server.url, 'GET', `/api/notes?${query}`, { headers });
      expect({ query, status: answer.status }).toEqual({ query, status: 200 });
      const text = JSON.stringify(answer.body);
      for (const secret of ['s3cret', 'scrypt', '"pin"', '"secret"', 'password', 'Token']) expect({ query, leaked: text.includes(secret) }).toEqual({ query, leaked: false });
    }
  });

  test.each([
    'fields[0]=secret',
    'fields[0]=pin',
    'sort=secret',
    'sort=pin:desc',
    'filters[secret][$eq]=s3cret',
    'filters[pin][$null]=false',
    'filters[owner][password][$startsWith]=scrypt',
    'filters[$or][0][readers][resetPasswordToken][$null]=true',
    'populate[owner][fields][0]=password',
    'populate[readers][filters][confirmationToken][$null]=true',
    'populate[readers][sort]=password',
  ])('%s is a 400', async (query) => {
    const answer = await call<RestError>(server.url, 'GET', `/api/notes?${query}`, { headers: reader });
    expect({ status: answer.status, name: answer.body.error.name }).toEqual({ status: 400, name: 'ValidationError' });
  });
});

