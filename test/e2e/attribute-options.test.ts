import { startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';

/** Attribute options enforced as Strapi enforces them: `regex`. */

let schema: SchemaCopy;
let server: TestServer;
beforeAll(async () => {
  schema = copyExampleSchema();
  schema.editContentType('tag', (tag) => {
    tag.attributes.name.regex = '^[a-z-]+$';
  });
  server = await startTestServer({ schemaDir: schema.schemaDir });
});
afterAll(async () => {
  await server.stop();
  schema.remove();
});

const create = (name: string) =>
  fetch(`${server.url}/api/tags`, { method: 'POST', headers: { 'content-type': 'application/json', ...server.asAdmin }, body: JSON.stringify({ data: { name } }) });

test('a value not matching the regex is a 400 naming the attribute and the pattern; nothing is stored', async () => {
  const refused = await create('Not Lower');
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { error: unknown }).error).toMatchObject({
    name: 'ValidationError',
    message: 'name must match the following: "/^[a-z-]+$/"',
    details: { errors: [{ path: ['name'], message: 'name must match the following: "/^[a-z-]+$/"', name: 'ValidationError' }] },
  });
  expect((await create('lower-case')).status).toBe(201);
  const stored = (await (await fetch(`${server.url}/api/tags`, { headers: server.asAdmin })).json()) as { data: Array<{ name: string }> };
  expect(stored.data.map((tag) => tag.name)).toEqual(['lower-case']);
  const graphql = await server.gql('mutation { createTag(data: { name: "NOPE" }) { name } }', {}, server.asAdmin);
  expect(graphql.body.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
});
