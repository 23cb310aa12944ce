import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { EXAMPLE_SCHEMA, PRODUCTION_ENV, startTestServer, type TestServer } from '../support/test-server';
import { restClient, type RestClient } from '../rest/rest-client';

/** The OpenAPI document, Swagger UI, and sofa's REST routes for hand-written extension operations. */

let schemaDir: string;
let server: TestServer;
let api: RestClient;

beforeAll(async () => {
  schemaDir = mkdtempSync(join(tmpdir(), 'folio-rest-openapi-'));
  cpSync(EXAMPLE_SCHEMA, schemaDir, { recursive: true });
  mkdirSync(join(schemaDir, 'extensions'), { recursive: true });
  writeFileSync(
    join(schemaDir, 'extensions', 'greetings.graphql'),
    `type Stats { articles: Int! }
     extend type Query {
       greeting(name: String!): String
       stats: Stats @auth(scope: ["api::article.article.find"])
     }
     extend type Mutation { touch(note: String!): Stats @auth(scope: ["api::article.article.update"]) }`,
  );
  writeFileSync(
    join(schemaDir, 'extensions', 'greetings.js'),
    `module.exports = {
      resolversConfig: { 'Query.greeting': { auth: false } },
      resolvers: {
        Query: { greeting: (_parent, { name }) => 'Hello ' + name, stats: () => ({ articles: 7 }) },
        Mutation: { touch: (_parent, { note }) => ({ articles: note.length }) },
      },
    };`,
  );
  server = await startTestServer({ schemaDir });
  api = restClient(server);
});

afterAll(async () => {
  await server.stop();
  rmSync(schemaDir, { recursive: true, force: true });
});

describe('/api/openapi.json', () => {
  test('validates as OpenAPI 3', async () => {
    const { status, body } = await api.get('/api/openapi.json', { anonymous: true });
    expect(status).toBe(200);
    const output = execFileSync(process.execPath, [join(__dirname, '../rest/validate-openapi.js')], { input: JSON.stringify(body) });
    const result = JSON.parse(output.toString()) as { valid: boolean; errors?: unknown };
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(body.openapi).toMatch(/^3\./);
  });

  test('describes the content routes and the extension routes, not sofa routes for Shadow CRUD', async () => {
    const { body } = await api.get('/api/openapi.json');
    const paths = Object.fromEntries(Object.entries(body.paths as Record<string, object>).map(([path, item]) => [path, Object.keys(item).sort()]));
    expect(paths).toMatchObject({
      '/api/articles': ['get', 'post'],
      '/api/articles/{documentId}': ['delete', 'get', 'put'],
      '/api/homepage': ['delete', 'get', 'put'],
      '/api/greeting': ['get'],
      '/api/stats': ['get'],
      '/api/touch': ['post'],
    });
    expect(Object.keys(paths).filter((path) => /connection|create-|update-|delete-/.test(path))).toEqual([]);
    const list = body.paths['/api/articles'].get;
    // documents, or with `aggregate`/`groupBy` one entry per group
    expect(list.responses['200'].content['application/json'].schema).toEqual({
      anyOf: [
        { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: { $ref: '#/components/schemas/ArticleDocument' } }, meta: { $ref: '#/components/schemas/PaginationMeta' } } },
        { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: { $ref: '#/components/schemas/ArticleAggregateEntry' } }, meta: { type: 'object' } } },
      ],
    });
    expect(body.components.schemas.ArticleDocument.properties.title).toEqual({ type: 'string', nullable: true });
    expect(body.components.schemas.ArticleInput).toBeDefined();
    // REST bodies take every relation form, though the GraphQL input types relations as ID
    expect(body.components.schemas.ArticleInput.properties.tags.description).toMatch(/connect, disconnect, set/);
    // every query-string parameter the route takes is described
    const parameterName = (parameter: { $ref?: string; name?: string }) => parameter.name ?? body.components.parameters[parameter.$ref!.split('/').pop()!].name;
    expect(list.parameters.map(parameterName)).toEqual(
      expect.arrayContaining(['fields', 'populate', 'filters', 'sort', 'pagination', 'status', 'publicationFilter', 'hasPublishedVersion', 'locale', '_q']),
    );
    expect(body.components.parameters.publicationFilter.schema.enum).toContain('never-published');
  });

  test("extension routes' response schemas are patched to the { data, meta } envelope", async () => {
    const { body } = await api.get('/api/openapi.json');
    expect(body.paths['/api/stats'].get.responses['200'].content['application/json'].schema).toEqual({
      type: 'object',
      required: ['data', 'meta'],
      properties: { data: { $ref: '#/components/schemas/Stats' }, meta: { type: 'object' } },
    });
  });
});

describe('extension operations as REST routes (sofa)', () => {
  test('a query: its arguments from the query string, its answer in the envelope', async () => {
    const { status, body } = await api.get('/api/greeting?name=Ann', { anonymous: true });
    expect(status).toBe(200);
    expect(body).toEqual({ data: 'Hello Ann', meta: {} });
  });

  test('a missing argument is a 400 in the error envelope', async () => {
    const { status, body } = await api.get('/api/greeting', { anonymous: true });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ status: 400, name: 'ValidationError' });
  });

  test('@auth applies: the same pipeline as /graphql', async () => {
    expect((await api.get('/api/stats', { anonymous: true })).body).toEqual({ data: { articles: 7 }, meta: {} });
    const forbidden = await api.request('POST', '/api/touch', { anonymous: true, body: { note: 'abc' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
    const allowed = await api.request('POST', '/api/touch', { body: { note: 'abc' } });
    expect(allowed.body).toEqual({ data: { articles: 3 }, meta: {} });
  });

  test('Shadow CRUD fields are not routed by sofa', async () => {
    expect((await api.get('/api/articles-connection')).status).toBe(404);
    expect((await api.request('POST', '/api/create-article', { body: { data: { title: 'x' } } })).status).toBe(404);
  });
});

describe('Swagger UI', () => {
  test('served from swagger-ui-dist at /api/docs/, no CDN', async () => {
    const redirect = await fetch(`${server.url}/api/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/api/docs/');
    const page = await fetch(`${server.url}/api/docs/`);
    const html = await page.text();
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toContain('swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${server.url}/api/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    expect(await (await fetch(`${server.url}/api/docs/swagger-initializer.js`)).text()).toContain("url: '/api/openapi.json'");
    expect((await fetch(`${server.url}/api/docs/../package.json`)).status).toBe(404);
  });
});

test('in production the schema stays private unless introspection is enabled', async () => {
  const production = await startTestServer({ env: PRODUCTION_ENV });
  try {
    expect((await fetch(`${production.url}/api/openapi.json`)).status).toBe(404);
    expect((await fetch(`${production.url}/api/docs/`)).status).toBe(404);
    expect((await fetch(`${production.url}/api/articles`)).status).toBe(200);
  } finally {
    await production.stop();
  }
});
