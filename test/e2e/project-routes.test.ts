import SwaggerParser from '@apidevtools/swagger-parser';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, defaultPlugins, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';
import { call, type RestError } from '../auth/http';
import { stderrDuring } from '../support/stderr-lines';

/**
 * A Strapi project's own routes, policies and middlewares (test/fixtures/project-code over the blog
 * models), served over real HTTP: core routers with `only` and per-action config, custom routes to
 * core actions, Koa-style middlewares around the core action, policies before it.
 */

const PROJECT_CODE = join(__dirname, '..', 'fixtures', 'project-code');

interface Article {
  documentId: string;
  title: string;
  category?: { name: string; documentId: string } | null;
}

let schema: SchemaCopy;
let server: TestServer;
let alpha: string;

// with the category controller's own action, which roles may be granted as Strapi's may
const PUBLIC = ['article', 'tag', 'author'].flatMap((name) => [`api::${name}.${name}.find`, `api::${name}.${name}.findOne`]).concat('api::category.category.names');

beforeAll(async () => {
  schema = copyExampleSchema();
  cpSync(PROJECT_CODE, schema.schemaDir, { recursive: true });
  // Public may read articles, tags and authors, not categories: category's `find` is opened by its route's `auth: false`
  server = await startTestServer({
    schemaDir: schema.schemaDir,
    config: { plugins: defaultPlugins({ 'users-permissions': { config: { roles: { public: { permissions: PUBLIC } } } } }) },
  });
  const admin = { headers: server.asAdmin };
  const news = await call<{ data: { documentId: string } }>(server.url, 'POST', '/api/categories', { ...admin, body: { data: { name: 'News' } } });
  const created = await call<{ data: { documentId: string } }>(server.url, 'POST', '/api/articles', { ...admin, body: { data: { title: 'Alpha', featured: true, category: news.body.data.documentId } } });
  expect(created.status).toBe(201);
  alpha = created.body.data.documentId;
  await call(server.url, 'POST', '/api/articles', { ...admin, body: { data: { title: 'Beta', featured: false } } });
  await call(server.url, 'POST', '/api/articles?status=draft', { ...admin, body: { data: { title: 'Gamma' } } });
});
afterAll(async () => {
  await server.stop();
  schema.remove();
});

test('a middleware setting ctx.query.populate before the core find: the list comes with the relation populated', async () => {
  const list = await call<{ data: Article[]; meta: { pagination: { total: number } } }>(server.url, 'GET', '/api/articles?sort=title', { headers: server.asAdmin });
  expect(list.status).toBe(200);
  expect(list.body.data.map(({ title, category }) => [title, category?.name ?? null])).toEqual([
    ['Alpha', 'News'],
    ['Beta', null],
  ]);
  expect(list.body.meta.pagination.total).toBe(2);
  // the populated relation keeps its own permission: Public may not read categories
  expect((await call(server.url, 'GET', '/api/articles')).status).toBe(403);
});

test("a policy refusing by the query answers Strapi's 403 PolicyError", async () => {
  const refused = await call(server.url, 'GET', '/api/articles?status=draft', { headers: server.asAdmin });
  expect(refused.status).toBe(403);
  expect(refused.body).toEqual({ data: null, error: { status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} } });
});

test('a policy throwing PolicyError with its own message and details; state.auth tells who calls', async () => {
  const refused = await call<RestError>(server.url, 'GET', `/api/articles-by-id/${alpha}`);
  expect(refused.body).toEqual({ data: null, error: { status: 403, name: 'PolicyError', message: 'Sign in first', details: { policy: 'signed-in' } } });
  const allowed = await call<{ data: Article }>(server.url, 'GET', `/api/articles-by-id/${alpha}`, { headers: server.asAdmin });
  expect(allowed.status).toBe(200);
  expect(allowed.body.data.title).toBe('Alpha');
});

test('a middleware changing ctx.body after next(), with a header of its own, using the global strapi', async () => {
  const one = await call<{ data: Article; meta: Record<string, unknown> }>(server.url, 'GET', `/api/articles/${alpha}`);
  expect(one.status).toBe(200);
  expect(one.body.data.title).toBe('Alpha');
  expect(one.body.meta).toEqual({ stamped: alpha, published: 2 });
  expect(one.headers.get('x-stamped')).toBe('yes');
  // the core action's 404 is thrown through the middleware, uncaught: Strapi's envelope, nothing stamped
  const missing = await call(server.url, 'GET', '/api/articles/no-such-document');
  expect(missing.status).toBe(404);
  expect(missing.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  expect(missing.headers.get('x-stamped')).toBeNull();
});

test("a core action's refusal reaches a middleware as Strapi's error class; uncaught, its answer is unchanged", async () => {
  const caught = await call(server.url, 'GET', '/api/articles-or-nothing/no-such-document', { headers: server.asAdmin });
  expect(caught.status).toBe(200);
  expect(caught.body).toEqual({ data: null, meta: { missing: 'no-such-document', caught: 'NotFoundError' } });
  // what the middleware lets through: the core action's 400 envelope, as the content route answers it
  const invalid = await call(server.url, 'GET', `/api/articles-or-nothing/${alpha}?populate=nothing`, { headers: server.asAdmin });
  expect(invalid.status).toBe(400);
  expect(invalid.body).toEqual((await call(server.url, 'GET', `/api/articles/${alpha}?populate=nothing`, { headers: server.asAdmin })).body);
});

test("strapi.documents answers null for a document it does not find, as Strapi's Document Service does", async () => {
  const missing = await call<{ data: unknown }>(server.url, 'GET', '/api/categories/no-such-document/missing', { headers: server.asAdmin });
  expect(missing).toMatchObject({ status: 200, body: { data: { found: null, updated: null, deleted: { documentId: 'no-such-document' } } } });
});

test("a controller's catch gets Strapi's error classes from super's core actions (their operation's and their query's refusals) and from strapi.documents", async () => {
  const refusals = await call<{ data: unknown[] }>(server.url, 'GET', '/api/categories/no-such-document/refusals', { headers: server.asAdmin });
  expect(refusals.status).toBe(200);
  expect(refusals.body.data).toEqual([
    { name: 'NotFoundError', message: 'Not Found', application: true, notFound: true, validation: false },
    { name: 'ValidationError', message: 'Invalid key nothing', application: true, notFound: false, validation: true },
    { name: 'ValidationError', message: 'name must be defined.', application: true, notFound: false, validation: true },
  ]);
});

test('a middleware changing ctx.request.body before the core create: the stored document has it', async () => {
  const created = await call<{ data: { documentId: string; summary: string } }>(server.url, 'POST', '/api/articles?status=draft', { headers: server.asAdmin, body: { data: { title: 'Epsilon' } } });
  expect(created.status).toBe(201);
  expect(created.body.data.summary).toBe('About Epsilon');
  expect((await call(server.url, 'DELETE', `/api/articles/${created.body.data.documentId}`, { headers: server.asAdmin })).status).toBe(204);
});

test('a custom route to the core find, with an inline middleware replacing ctx.query', async () => {
  const featured = await call<{ data: Article[] }>(server.url, 'GET', '/api/articles-featured');
  expect(featured.status).toBe(200);
  expect(featured.body.data.map(({ title }) => title)).toEqual(['Alpha']);
});

test('a middleware setting ctx.body to null answers an empty 204, as Koa does', async () => {
  const emptied = await fetch(`${server.url}/api/articles-emptied`);
  expect(emptied.status).toBe(204);
  expect(await emptied.text()).toBe('');
});

test("ctx.throw(418) answers Strapi's envelope with that status", async () => {
  const teapot = await call(server.url, 'GET', '/api/articles-teapot');
  expect(teapot.status).toBe(418);
  expect(teapot.body).toEqual({ data: null, error: { status: 418, name: 'ImATeapotError', message: 'short and stout', details: {} } });
});

test("a middleware failing unexpectedly: Strapi's 500 envelope, and a log line naming its file and what it reached for", async () => {
  const { result: broken, written } = await stderrDuring(() => call(server.url, 'GET', '/api/articles-broken'));
  expect(broken.status).toBe(500);
  expect(broken.body).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } });
  const line = written.find((text) => text.startsWith('REST: '));
  expect(line).toContain(join(schema.schemaDir, 'api', 'article', 'middlewares', 'broken.js'));
  expect(line).toContain('strapi.service is not supported by Folio');
});

test('strapi.documents(uid) reads through the REST front with full access: drafts included', async () => {
  const counts = await call(server.url, 'GET', '/api/articles-count');
  expect(counts.status).toBe(200);
  expect(counts.body).toEqual({ drafts: 3, published: 2, listed: 2, first: 'Alpha' });
});

test('a middleware answering by itself: a draft published and read back through strapi.documents(uid)', async () => {
  const draft = await call<{ data: { documentId: string } }>(server.url, 'POST', '/api/articles?status=draft', { headers: server.asAdmin, body: { data: { title: 'Delta' } } });
  expect((await call(server.url, 'GET', `/api/articles/${draft.body.data.documentId}`)).status).toBe(404);
  const published = await call<{ data: { title: string; publishedAt: string }; meta: unknown }>(server.url, 'POST', `/api/articles/${draft.body.data.documentId}/publish`, { headers: server.asAdmin });
  expect(published.status).toBe(201);
  expect(published.body.data.title).toBe('Delta');
  expect(published.body.data.publishedAt).toEqual(expect.any(String));
  expect(published.body.meta).toEqual({ entries: 1 });
  expect((await call(server.url, 'GET', `/api/articles/${draft.body.data.documentId}`)).status).toBe(200);
});

test('only: the routes left out do not exist (405 on a path that has others)', async () => {
  expect((await call(server.url, 'GET', '/api/tags')).status).toBe(200);
  const create = await call<RestError>(server.url, 'POST', '/api/tags', { headers: server.asAdmin, body: { data: { name: 'x' } } });
  expect(create.status).toBe(405);
  expect(create.headers.get('allow')).toBe('GET');
  expect((await call(server.url, 'DELETE', '/api/tags/abc', { headers: server.asAdmin })).status).toBe(405);
});

test("a router building on the core router: the core routes keep their action's permission and config, its own route runs too", async () => {
  for (const [name, weight] of [['light', 1], ['heavy', 9]] as const) {
    const created = await server.gql('mutation ($data: TagInput!) { createTag(data: $data) { documentId } }', { data: { name, weight } }, server.asAdmin);
    expect(created.body.errors).toBeUndefined();
  }
  const list = await call<{ data: Array<{ name: string; documentId: string }> }>(server.url, 'GET', '/api/tags?sort=name');
  expect(list.status).toBe(200);
  expect(list.body.data.map(({ name }) => name)).toEqual(['heavy', 'light']);
  // findOne's config.policies, from createCoreRouter's options, through the router wrapping it
  const { documentId } = list.body.data[0];
  const refused = await call(server.url, 'GET', `/api/tags/${documentId}`);
  expect(refused.body).toEqual({ data: null, error: { status: 403, name: 'PolicyError', message: 'Sign in first', details: { policy: 'signed-in' } } });
  expect((await call(server.url, 'GET', `/api/tags/${documentId}`, { headers: server.asAdmin })).status).toBe(200);
  const heaviest = await call<{ data: Array<{ name: string }> }>(server.url, 'GET', '/api/tags-heaviest');
  expect(heaviest.status).toBe(200);
  expect(heaviest.body.data.map(({ name }) => name)).toEqual(['heavy']);
});

test('auth: false opens that route only: not findOne, not /graphql; credentials are not read there', async () => {
  const list = await call<{ data: Array<{ name: string }>; meta: Record<string, unknown> }>(server.url, 'GET', '/api/categories');
  expect(list.status).toBe(200);
  expect(list.body.data.map(({ name }) => name)).toEqual(['News']);
  // the category controller overrides find through super.find
  expect(list.body.meta).toMatchObject({ overridden: true, pagination: { total: 1 } });
  // Strapi does not authenticate an auth: false route: a credential that opens nothing is not refused
  expect((await call(server.url, 'GET', '/api/categories', { headers: { authorization: 'Bearer not-a-token' } })).status).toBe(200);
  const documentId = (await call<{ data: Array<{ documentId: string }> }>(server.url, 'GET', '/api/categories')).body.data[0].documentId;
  expect((await call(server.url, 'GET', `/api/categories/${documentId}`)).status).toBe(403);
  const graphql = await server.gql('{ categories { name } }');
  expect(graphql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
});

test("a custom controller action: granted to a role by its own permission, its return value the body; this.<member> outside the subset a logged 500", async () => {
  const names = await call(server.url, 'GET', '/api/category-names');
  expect(names.status).toBe(200);
  expect(names.body).toEqual({ data: ['News'] });
  const documentId = (await call<{ data: Array<{ documentId: string }> }>(server.url, 'GET', '/api/categories')).body.data[0].documentId;
  const { result: sanitized, written } = await stderrDuring(() => call(server.url, 'GET', `/api/categories/${documentId}/sanitized`, { headers: server.asAdmin }));
  expect(sanitized.status).toBe(500);
  const line = written.find((text) => text.startsWith('REST: '));
  expect(line).toContain(join(schema.schemaDir, 'api', 'category', 'controllers', 'category.js'));
  expect(line).toContain('this (the api::category.category controller).sanitizeOutput is not supported by Folio');
  // the action's permission is its own: Public has it not for this one
  expect((await call(server.url, 'GET', `/api/categories/${documentId}/sanitized`)).status).toBe(403);
});

test('an API without route files keeps its core routes', async () => {
  expect((await call(server.url, 'GET', '/api/authors')).status).toBe(200);
});

test('the OpenAPI document lists the routes the files declare, not the core routes they leave out', async () => {
  const { body: document } = await call<{ paths: Record<string, Record<string, { operationId: string; security: unknown[]; parameters: Array<{ name?: string; in?: string }> }>> }>(server.url, 'GET', '/api/openapi.json');
  await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  const { paths } = document;
  expect(Object.keys(paths['/api/tags'])).toEqual(['get']);
  expect(Object.keys(paths['/api/tags/{id}'])).toEqual(['get']);
  expect(paths['/api/articles'].get.operationId).toBe('findManyArticle');
  expect(paths['/api/articles-featured'].get.operationId).toBe('findManyArticle_articles_featured');
  // the core routes a wrapping router passes on are the core router's; what it adds is its own
  expect(paths['/api/tags'].get.operationId).toBe('findManyTag');
  expect(paths['/api/tags-heaviest'].get.operationId).toBe('findManyTag_tags_heaviest');
  expect(paths['/api/categories'].get.security).toEqual([{}, { bearerAuth: [] }]);
  expect(paths['/api/articles-by-id/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path' });
  expect(paths['/api/authors/{documentId}']).toBeDefined();
});
