import { resolve } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';
import { stderrDuring } from '../support/stderr-lines';

/**
 * A users-permissions user extension relating users to users (test/fixtures/user-self-relation: `manager`,
 * manyToOne inversedBy `members`; `members`, oneToMany mappedBy `manager`, both on the user): both sides are
 * served, written through /api/users and GraphQL and read on both surfaces.
 */

type Json = Record<string, unknown>;

let server: TestServer;
let startLines: string[];

beforeAll(async () => {
  const started = await stderrDuring(() => startTestServer({ schemaDir: resolve(__dirname, '../fixtures/user-self-relation'), config: { plugins: { email: { enabled: false } } } }));
  server = started.result;
  startLines = started.written;
});
afterAll(async () => {
  await server?.stop();
});

const users = async (method: string, path: string, body?: Json): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${server.url}/api/users${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
};

const create = async (username: string, extra: Json = {}): Promise<Json> => {
  const { status, body } = await users('POST', '', { username, email: `${username}@example.com`, password: 'Passw0rd!', ...extra });
  expect({ status, body }).toMatchObject({ status: 201 });
  return body;
};

test('starts without a word about the relations, the plugin-defined role included', () => {
  expect(startLines.filter((line) => line.includes('folio:'))).toEqual([]);
});

test('manager and members are written through /api/users and read on both sides, over REST and GraphQL', async () => {
  const boss = await create('boss');
  const ann = await create('ann', { manager: boss.id, jobTitle: 'editor' });
  const bob = await create('bob');
  expect((await users('PUT', `/${bob.id}`, { manager: boss.documentId })).status).toBe(200);

  const managed = await users('GET', `/${ann.id}?populate=manager`);
  expect(managed.body).toMatchObject({ username: 'ann', jobTitle: 'editor', manager: { username: 'boss' } });
  const team = await users('GET', `/${boss.id}?populate[members][fields][0]=username&populate[members][sort]=username`);
  expect((team.body.members as Json[]).map((member) => member.username)).toEqual(['ann', 'bob']);

  const graphql = await server.gql<{ usersPermissionsUsers: Array<{ username: string; manager: { username: string } | null; members: Array<{ username: string }> }> }>(
    '{ usersPermissionsUsers(sort: "username") { username manager { username } members(sort: "username") { username } } }',
    {},
    server.asAdmin,
  );
  expect(graphql.body.errors).toBeUndefined();
  expect(graphql.body.data?.usersPermissionsUsers).toEqual([
    { username: 'ann', manager: { username: 'boss' }, members: [] },
    { username: 'bob', manager: { username: 'boss' }, members: [] },
    { username: 'boss', manager: null, members: [{ username: 'ann' }, { username: 'bob' }] },
  ]);

  const filtered = await users('GET', '?filters[manager][username][$eq]=boss&sort=username');
  expect((filtered.body as unknown as Json[]).map((user) => user.username)).toEqual(['ann', 'bob']);
});

test('the inverse side is written too: GraphQL sets members, and each member points back', async () => {
  const lead = await create('lead');
  const cid = await create('cid');
  const updated = await server.gql<{ updateUsersPermissionsUser: { data: { members: Array<{ username: string }> } } }>(
    'mutation($id: ID!, $members: [ID]) { updateUsersPermissionsUser(id: $id, data: { members: $members }) { data { members { username } } } }',
    { id: String(lead.id), members: [String(cid.documentId)] },
    server.asAdmin,
  );
  expect(updated.body.errors).toBeUndefined();
  expect(updated.body.data?.updateUsersPermissionsUser.data.members).toEqual([{ username: 'cid' }]);
  expect((await users('GET', `/${cid.id}?populate=manager`)).body).toMatchObject({ manager: { username: 'lead' } });
});
