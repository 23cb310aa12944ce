import { startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';

/**
 * Enumeration values that are not GraphQL names (`datetime-local`, `2xl`, `with space`) load: GraphQL
 * names them as Strapi's plugin does, REST, filters and the store keep the values.
 */

let schema: SchemaCopy;
let server: TestServer;
beforeAll(async () => {
  schema = copyExampleSchema();
  schema.editContentType('tag', (tag) => {
    tag.attributes.size = { type: 'enumeration', enum: ['small', '2xl', 'with space', 'datetime-local'] };
  });
  server = await startTestServer({ schemaDir: schema.schemaDir });
});
afterAll(async () => {
  await server.stop();
  schema.remove();
});

const rest = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
};

test('GraphQL names the values as Strapi does', async () => {
  const answer = await server.gql<{ __type: { enumValues: Array<{ name: string }> } }>('{ __type(name: "ENUM_TAG_SIZE") { enumValues { name } } }', {}, server.asAdmin);
  expect(answer.body.data!.__type.enumValues.map((value) => value.name)).toEqual(['small', '_2xl', 'with_space', 'datetime_local']);
});

test('written over REST with the value, read over GraphQL by name and over REST by value; filters take the value', async () => {
  const created = await rest<{ data: { documentId: string; size: string } }>('POST', '/api/tags', { data: { name: 'wide', size: 'datetime-local' } });
  expect(created.status).toBe(201);
  expect(created.body.data.size).toBe('datetime-local');
  const graphql = await server.gql<{ tag: { size: string } }>('query($id: ID!) { tag(documentId: $id) { size } }', { id: created.body.data.documentId }, server.asAdmin);
  expect(graphql.body.data!.tag.size).toBe('datetime_local');
  const filtered = await rest<{ data: Array<{ name: string }> }>('GET', '/api/tags?filters[size][$eq]=datetime-local');
  expect(filtered.body.data.map((tag) => tag.name)).toEqual(['wide']);
});

test('written over GraphQL by name, stored and shown over REST as the value', async () => {
  const created = await server.gql<{ createTag: { documentId: string; size: string } }>('mutation { createTag(data: { name: "big", size: _2xl }) { documentId size } }', {}, server.asAdmin);
  expect(created.body.data!.createTag.size).toBe('_2xl');
  const read = await rest<{ data: { size: string } }>('GET', `/api/tags/${created.body.data!.createTag.documentId}`);
  expect(read.body.data.size).toBe('2xl');
  const refused = await rest<{ error: { name: string } }>('POST', '/api/tags', { data: { name: 'x', size: 'huge' } });
  expect(refused.status).toBe(400);
});
