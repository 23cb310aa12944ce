import SwaggerParser from '@apidevtools/swagger-parser';
import OpenAPIResponseValidator from 'openapi-response-validator';
import type { OpenAPIV3 } from 'openapi-types';
import { startTestServer, type TestServer } from '../support/test-server';
import { restClient, type RestClient } from '../rest/rest-client';
import { upload } from '../upload/upload-server';
import { png } from '../upload/images';

/**
 * /api/openapi.json is a valid OpenAPI 3 document (swagger-parser), and what the server really answers
 * (lists, one document, populated relations, media, components, dynamic zones, errors, users, files,
 * locales) matches the schema it gives for that route and status (openapi-response-validator).
 */

type Document = OpenAPIV3.Document;

let server: TestServer;
let api: RestClient;
let document: Document;
let articleId: string;
let uploadAnswer: { status: number; body: Array<{ id: number }> };

beforeAll(async () => {
  server = await startTestServer();
  api = restClient(server);
  document = (await api.get('/api/openapi.json', { anonymous: true })).body as Document;
  const category = await api.request('POST', '/api/categories', { body: { data: { name: 'News' } } });
  const tag = await api.request('POST', '/api/tags', { body: { data: { name: 'one' } } });
  uploadAnswer = await upload(server, [{ name: 'cover.png', content: png(1200, 800), type: 'image/png' }]);
  const created = await api.request('POST', '/api/articles?status=published', {
    body: {
      data: {
        title: 'Hello',
        views: 3,
        rating: 4.5,
        kind: 'news',
        publishDate: '2024-05-01',
        extra: { any: ['thing'] },
        content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hi' }] }],
        category: category.body.data.documentId,
        tags: [tag.body.data.documentId],
        seo: { metaTitle: 'Hello', keywords: [{ value: 'one' }] },
        cover: uploadAnswer.body[0].id,
        gallery: [uploadAnswer.body[0].id],
        sections: [{ __component: 'shared.quote', text: 'Quoted', source: 'me' }],
      },
    },
  });
  expect(created.status).toBe(201);
  articleId = created.body.data.documentId;
});

afterAll(async () => {
  await server.stop();
});

/** Validation errors of an answer against the document's schema for that route and status, or undefined. */
const mismatchOf = (path: string, method: 'get' | 'post', status: number, body: unknown) => {
  const operation = document.paths[path]?.[method];
  if (!operation) throw new Error(`the document has no ${method} ${path}`);
  const declared = (operation.responses[String(status)] ?? operation.responses.default) as OpenAPIV3.ResponseObject | OpenAPIV3.ReferenceObject | undefined;
  if (!declared) return `status ${status} is not declared for ${method} ${path}`;
  const response = '$ref' in declared ? document.components!.responses![declared.$ref.split('/').pop()!] as OpenAPIV3.ResponseObject : declared;
  const schema = response.content?.['application/json']?.schema as OpenAPIV3.SchemaObject;
  const validator = new OpenAPIResponseValidator({ responses: { [status]: { schema } }, components: document.components });
  return validator.validateResponse(status, body)?.errors;
};

const check = async (path: string, url: string, options: { method?: 'get' | 'post'; status: number; body?: unknown; headers?: Record<string, string>; anonymous?: boolean }) => {
  const { method = 'get', status } = options;
  const answer = await api.request(method.toUpperCase(), url, { body: options.body, headers: options.headers, anonymous: options.anonymous });
  expect([url, answer.status]).toEqual([url, status]);
  expect([url, mismatchOf(path, method, status, answer.body)]).toEqual([url, undefined]);
  return answer.body;
};

test('the document is valid OpenAPI 3 (swagger-parser)', async () => {
  await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  expect(document.openapi).toMatch(/^3\.0\./);
});

test('it describes the plugins\' routes, and no GraphQL-only shapes', () => {
  for (const path of ['/api/auth/local', '/api/auth/local/register', '/api/auth/forgot-password', '/api/auth/reset-password', '/api/auth/email-confirmation', '/api/auth/send-email-confirmation', '/api/users/me', '/api/users', '/api/users/{id}', '/api/users/count', '/api/upload', '/api/upload/files', '/api/upload/files/{id}', '/api/i18n/locales']) {
    expect(Object.keys(document.paths)).toContain(path);
  }
  const schemas = JSON.stringify(document.components?.schemas);
  expect(schemas).not.toMatch(/_connection|EntityResponseCollection|"#\/components\/schemas\/Error"/);
  const article = document.components!.schemas!.ArticleDocument as OpenAPIV3.SchemaObject;
  expect(article.required).toEqual(['id', 'documentId']);
  expect(Object.keys(article.properties!)).toEqual(expect.arrayContaining(['title', 'category', 'tags', 'cover', 'gallery', 'seo', 'sections']));
});

test('parameters are typed per content type: filters with operators, pagination, populate in both forms', () => {
  const list = document.paths['/api/articles']!.get!;
  const parameter = (name: string) => {
    const found = list.parameters!.map((entry) => ('$ref' in entry ? document.components!.parameters![entry.$ref.split('/').pop()!] : entry) as OpenAPIV3.ParameterObject).find((entry) => entry.name === name);
    const schema = found!.schema as OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject;
    return '$ref' in schema ? (document.components!.schemas![schema.$ref.split('/').pop()!] as OpenAPIV3.SchemaObject) : schema;
  };
  expect(Object.keys(parameter('pagination').properties!)).toEqual(['page', 'pageSize', 'start', 'limit', 'withCount']);
  const filters = parameter('filters');
  expect(Object.keys(filters.properties!)).toEqual(expect.arrayContaining(['title', 'views', 'category', '$and', '$or', '$not']));
  expect(filters.properties!.category).toEqual({ $ref: '#/components/schemas/CategoryFilters' });
  const operators = document.components!.schemas!.FilterOperators as OpenAPIV3.SchemaObject;
  expect(Object.keys(operators.properties!)).toEqual(expect.arrayContaining(['$eq', '$containsi', '$in', '$between', '$null']));
  // a field's own $or lists values or operator objects (filters[title][$or][0][$contains]=x)
  expect(operators.properties!.$or).toEqual({ type: 'array', items: { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/FilterOperators' }] } });
  expect(parameter('populate').anyOf!.map((form) => (form as OpenAPIV3.SchemaObject).type)).toEqual(['string', 'array', 'object']);
  const security = (operation: OpenAPIV3.OperationObject) => [operation.security, (operation as Record<string, unknown>)['x-permission'], (operation as Record<string, unknown>)['x-roles']];
  expect(security(list)).toEqual([[{}, { bearerAuth: [] }], 'api::article.article.find', ['public']]);
  expect(security(document.paths['/api/articles']!.post!)).toEqual([[{ bearerAuth: [] }], 'api::article.article.create', []]);
  expect(security(document.paths['/api/users/me']!.get!)).toEqual([[{ bearerAuth: [] }], 'plugin::users-permissions.user.me', ['authenticated']]);
  expect(security(document.paths['/api/users/count']!.get!)).toEqual([[{ bearerAuth: [] }], 'plugin::users-permissions.user.find', []]);
  expect(security(document.paths['/api/auth/forgot-password']!.post!)).toEqual([[{}], undefined, undefined]);
});

test('content answers match: list, one, populated, fields, errors', async () => {
  await check('/api/articles', '/api/articles', { status: 200, anonymous: true });
  await check('/api/articles/{documentId}', `/api/articles/${articleId}`, { status: 200 });
  const populated = (await check('/api/articles', '/api/articles?populate=*', { status: 200 })) as { data: Array<Record<string, unknown>> };
  expect(populated.data[0]).toMatchObject({ sections: [expect.any(Object)], cover: { formats: expect.any(Object) }, gallery: [expect.any(Object)], seo: expect.any(Object) });
  await check('/api/articles', '/api/articles?populate[category][populate]=*&populate[tags][fields][0]=name&fields[0]=title', { status: 200 });
  await check('/api/articles/{documentId}', `/api/articles/${articleId}?populate[sections]=*&populate[seo]=*`, { status: 200 });
  await check('/api/articles/{documentId}', '/api/articles/nope', { status: 404 });
  await check('/api/articles', '/api/articles?filters[nope][$eq]=1', { status: 400 });
  await check('/api/articles', '/api/articles', { method: 'post', status: 403, anonymous: true, body: { data: { title: 'x' } } });
  await check('/api/homepage', '/api/homepage', { status: 404 });
});

test('aggregation: its parameters name what the type offers, and its answers match the list route', async () => {
  const schemas = document.components!.schemas! as Record<string, OpenAPIV3.SchemaObject>;
  const names = (schema: OpenAPIV3.SchemaObject) => ((schema.anyOf![1] as OpenAPIV3.ArraySchemaObject).items as OpenAPIV3.SchemaObject).enum;
  const query = schemas.ArticleAggregateQuery.properties as Record<string, OpenAPIV3.SchemaObject>;
  expect(names(query.sum)).toEqual(expect.arrayContaining(['views', 'rating']));
  expect(names(query.sum)).not.toContain('title');
  expect(names(query.min)).toEqual(expect.arrayContaining(['title', 'views', 'publishDate', 'createdAt']));
  expect(names(schemas.ArticleGroupByQuery)).toEqual(expect.arrayContaining(['category', 'kind', 'featured']));
  expect(names(schemas.ArticleGroupByQuery)).not.toContain('tags');
  await check('/api/articles', '/api/articles?aggregate[count]=*&aggregate[sum][0]=views&aggregate[avg][0]=rating&aggregate[min][0]=publishDate&aggregate[max][0]=title', { status: 200, anonymous: true });
  const grouped = (await check('/api/articles', '/api/articles?aggregate[count]=*&aggregate[sum][0]=views&groupBy[0]=category&sort=count:desc', { status: 200, anonymous: true })) as { data: unknown[] };
  expect(grouped.data).toEqual([{ group: { category: expect.any(String) }, count: 1, sum: { views: 3 } }]);
  await check('/api/articles', '/api/articles?aggregate[count]=*&groupBy[0]=kind&filters[views][$gt]=100', { status: 200, anonymous: true });
  // several attributes: one entry per combination, keyed by each, as the entry schema says
  const combined = (await check('/api/articles', '/api/articles?aggregate[count]=*&aggregate[max][0]=views&groupBy[0]=category&groupBy[1]=kind&groupBy[2]=featured', { status: 200, anonymous: true })) as { data: unknown[] };
  expect(combined.data).toEqual([{ group: { category: expect.any(String), kind: expect.any(String), featured: expect.any(Boolean) }, count: 1, max: { views: 3 } }]);
  expect((schemas.ArticleGroupByQuery.anyOf![1] as OpenAPIV3.ArraySchemaObject).maxItems).toBe(8);
  await check('/api/articles', '/api/articles?aggregate[sum][0]=title', { status: 400, anonymous: true });
  // an answer of the wrong shape is told apart: a count that is not a number
  expect(mismatchOf('/api/articles', 'get', 200, { data: [{ group: {}, count: 'one' }], meta: {} })).toBeDefined();
});

test("plugin answers match: sign-up, sign-in, me, users, files, locales", async () => {
  const signedUp = (await check('/api/auth/local/register', '/api/auth/local/register', {
    method: 'post',
    status: 200,
    anonymous: true,
    body: { username: 'ann', email: 'ann@example.com', password: 'secret-password' },
  })) as { jwt: string };
  await check('/api/auth/local', '/api/auth/local', { method: 'post', status: 200, anonymous: true, body: { identifier: 'ann', password: 'secret-password' } });
  await check('/api/auth/local', '/api/auth/local', { method: 'post', status: 400, anonymous: true, body: { identifier: 'ann', password: 'wrong-password' } });
  await check('/api/users/me', '/api/users/me', { status: 200, headers: { authorization: `Bearer ${signedUp.jwt}` } });
  await check('/api/users/me', '/api/users/me', { status: 403, anonymous: true });
  await check('/api/users', '/api/users', { status: 200 });
  await check('/api/users/count', '/api/users/count', { status: 200 });
  expect([uploadAnswer.status, mismatchOf('/api/upload', 'post', 201, uploadAnswer.body)]).toEqual([201, undefined]);
  await check('/api/upload/files', '/api/upload/files', { status: 200 });
  await check('/api/upload/files/{id}', `/api/upload/files/${uploadAnswer.body[0].id}`, { status: 200 });
  await check('/api/i18n/locales', '/api/i18n/locales', { status: 200 });
});
