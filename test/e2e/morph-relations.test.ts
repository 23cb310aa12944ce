import { defaultPlugins, startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';

/**
 * Polymorphic relations (morphToMany, morphToOne) as Strapi serves them: written over REST as
 * `[{ __type, id }]`, read over GraphQL through the GenericMorph union and over REST populate
 * with each item's `__type`.
 */

type Json = Record<string, unknown>;

let schema: SchemaCopy;
let server: TestServer;

beforeAll(async () => {
  schema = copyExampleSchema();
  schema.editContentType('article', (model) => {
    model.attributes.related = { type: 'relation', relation: 'morphToMany' };
    model.attributes.pinned = { type: 'relation', relation: 'morphToOne' };
  });
  // the public may read articles and tags, not categories
  const publicRole = { public: { permissions: ['api::article.article.find', 'api::article.article.findOne', 'api::tag.tag.find'] } };
  server = await startTestServer({ schemaDir: schema.schemaDir, config: { plugins: defaultPlugins({ 'users-permissions': { config: { roles: publicRole } } }) } });
});
afterAll(async () => {
  await server.stop();
  schema.remove();
});

const rest = async (method: string, path: string, body?: unknown, headers: Record<string, string> = server.asAdmin): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
};

const created = async (path: string, data: Json): Promise<{ id: number; documentId: string }> => {
  const answer = await rest('POST', path, { data });
  expect(answer.status).toBe(201);
  return answer.body.data as { id: number; documentId: string };
};

test('written as Strapi writes them, read through GenericMorph and REST populate, each item with its type', async () => {
  const tag = await created('/api/tags', { name: 'morph-tag' });
  const category = await created('/api/categories', { name: 'Morph category' });
  const article = await created('/api/articles', {
    title: 'Polymorphic',
    related: [{ __type: 'api::tag.tag', id: tag.id }, { __type: 'api::category.category', documentId: category.documentId }],
    pinned: [{ __type: 'api::category.category', id: category.id }],
  });

  const answer = await server.gql<{ article: Json }>(
    `query($id: ID!) { article(documentId: $id) {
      related { __typename ... on Tag { name } ... on Category { name } }
      pinned { __typename ... on Category { name } }
    } }`,
    { id: article.documentId },
    server.asAdmin,
  );
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data!.article).toEqual({
    related: [{ __typename: 'Tag', name: 'morph-tag' }, { __typename: 'Category', name: 'Morph category' }],
    pinned: { __typename: 'Category', name: 'Morph category' },
  });

  const populated = await rest('GET', `/api/articles/${article.documentId}?populate[related]=true&populate[pinned]=true`);
  expect(populated.status).toBe(200);
  const data = populated.body.data as { related: Json[]; pinned: Json };
  expect(data.related).toEqual([
    expect.objectContaining({ __type: 'api::tag.tag', id: tag.id, documentId: tag.documentId, name: 'morph-tag' }),
    expect.objectContaining({ __type: 'api::category.category', id: category.id, documentId: category.documentId, name: 'Morph category' }),
  ]);
  expect(data.pinned).toEqual(expect.objectContaining({ __type: 'api::category.category', documentId: category.documentId }));

  const on = await rest('GET', `/api/articles/${article.documentId}?populate[related][on][api::tag.tag][fields][0]=name`);
  expect((on.body.data as { related: Json[] }).related).toEqual([{ __type: 'api::tag.tag', id: tag.id, documentId: tag.documentId, name: 'morph-tag' }]);

  const star = await rest('GET', `/api/articles/${article.documentId}?populate=*`);
  expect(star.status).toBe(200);
  expect(((star.body.data as { related: Json[] }).related).map((item) => item.__type)).toEqual(['api::tag.tag', 'api::category.category']);

  const replaced = await rest('PUT', `/api/articles/${article.documentId}?populate[related]=true`, { data: { related: [{ __type: 'api::tag.tag', documentId: tag.documentId }], pinned: null } });
  expect(replaced.status).toBe(200);
  expect(((replaced.body.data as { related: Json[] }).related).map((item) => item.documentId)).toEqual([tag.documentId]);
});

test('an item of an unknown type, an id naming nothing, a missing documentId, a to-one given two: a 400, nothing stored; no filtering or sorting on them', async () => {
  const tag = await created('/api/tags', { name: 'morph-bad' });
  const write = (data: Json) => rest('POST', '/api/articles', { data: { title: 'Bad morph', ...data } });
  const unknownType = await write({ related: [{ __type: 'api::nope.nope', id: 1 }] });
  expect(unknownType.status).toBe(400);
  expect(((unknownType.body.error as { details: { errors: Json[] } }).details.errors[0]).path).toEqual(['related']);
  expect((await write({ related: [{ __type: 'api::tag.tag', id: 987654 }] })).status).toBe(400);
  const missing = await write({ related: [{ __type: 'api::tag.tag', documentId: 'doesnotexist' }] });
  expect(missing.status).toBe(400);
  expect((missing.body.error as Json).message).toBe('Document with id "doesnotexist", locale "null" not found');
  expect((await write({ pinned: [{ __type: 'api::tag.tag', id: tag.id }, { __type: 'api::tag.tag', id: tag.id }] })).status).toBe(400);
  const list = await rest('GET', '/api/articles?filters[title][$eq]=Bad morph');
  expect(list.body.data).toEqual([]);
  // nor are they filtered, sorted or picked as fields
  for (const query of ['filters[related][$null]=true', 'sort=related', 'fields[0]=related']) expect((await rest('GET', `/api/articles?${query}`)).status).toBe(400);
});

test('a reader who may not find a type does not see its items, over GraphQL and REST', async () => {
  const tag = await created('/api/tags', { name: 'morph-public' });
  const category = await created('/api/categories', { name: 'Morph private' });
  const article = await created('/api/articles', {
    title: 'Public morph',
    related: [{ __type: 'api::category.category', id: category.id }, { __type: 'api::tag.tag', id: tag.id }],
    pinned: [{ __type: 'api::category.category', id: category.id }],
  });
  const answer = await server.gql<{ article: Json }>('query($id: ID!) { article(documentId: $id) { related { __typename ... on Tag { name } } pinned { __typename } } }', { id: article.documentId });
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data!.article).toEqual({ related: [{ __typename: 'Tag', name: 'morph-public' }], pinned: null });
  const populated = await rest('GET', `/api/articles/${article.documentId}?populate[related]=true`, undefined, {});
  expect(((populated.body.data as { related: Json[] }).related).map((item) => item.__type)).toEqual(['api::tag.tag']);
});

test('the OpenAPI document and the SDL describe the polymorphic fields', async () => {
  const openapi = await fetch(`${server.url}/api/openapi.json`, { headers: server.asAdmin });
  expect(openapi.status).toBe(200);
  const type = await server.gql<{ __type: { possibleTypes: Array<{ name: string }> } }>('{ __type(name: "GenericMorph") { possibleTypes { name } } }', {}, server.asAdmin);
  expect(type.body.data!.__type.possibleTypes.map((member) => member.name)).toEqual(expect.arrayContaining(['ComponentSharedSeo', 'UploadFile', 'Article', 'Tag', 'UsersPermissionsUser']));
});
