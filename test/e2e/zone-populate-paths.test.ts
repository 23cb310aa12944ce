import { resolve } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * `populate` through a dynamic zone names fields of some of its components (test/fixtures/zone-populate,
 * the models of Strapi's own API tests): populated where the entry's component has them, ignored
 * elsewhere, and a 400 only when none of the zone's components has them, in every populate form, through
 * components and relations.
 */

type Json = Record<string, unknown>;

let server: TestServer;
let documentId: string;
let childId: string;
let category: Json;

const get = async (query: string): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${server.url}/api/withdynamiczones/${childId}?${query}`, { headers: server.asAdmin });
  return { status: response.status, body: (await response.json()) as Json };
};

const post = async (path: string, data: Json): Promise<Json> => {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...server.asAdmin }, body: JSON.stringify({ data }) });
  const body = (await response.json()) as { data: Json };
  expect(response.status).toBe(201);
  return body.data;
};

const zones = (category: string) => ({
  field: [
    { __component: 'default.simple-compo', name: 'someString' },
    { __component: 'default.compo-with-other-compo', compo: { name: 'nested' } },
  ],
  dz: [
    { __component: 'default.compo-a', items: { title: 'AAAA', category } },
    { __component: 'default.compo-b', items: { name: 'BBBB', category: 'smthg', category_diff: category } },
  ],
});

beforeAll(async () => {
  server = await startTestServer({ schemaDir: resolve(__dirname, '../fixtures/zone-populate'), config: { plugins: { email: { enabled: false } } } });
  category = await post('/api/categories', { name: 'Tech' });
  documentId = String((await post('/api/withdynamiczones', { name: 'parent', ...zones(String(category.documentId)) })).documentId);
  childId = String((await post('/api/withdynamiczones', { name: 'child', ...zones(String(category.documentId)), parent: documentId })).documentId);
});
afterAll(async () => {
  await server?.stop();
});

const withCompo = [
  { __component: 'default.simple-compo', id: expect.any(Number), name: 'someString' },
  { __component: 'default.compo-with-other-compo', id: expect.any(Number), compo: { id: expect.any(Number), name: 'nested' } },
];

test.each([
  'populate[0]=field.compo',
  'populate=field.compo',
  'populate=field,field.compo',
  'populate[0]=field&populate[1]=field.compo',
  'populate[field][populate][compo]=true',
  'populate[field][populate]=compo',
  'populate[field][on][default.compo-with-other-compo][populate]=compo&populate[field][on][default.simple-compo]=true',
])('%s populates compo where the entry has it and leaves the other entries as they are', async (query) => {
  const { status, body } = await get(query);
  expect(status).toBe(200);
  expect((body.data as Json).field).toEqual(withCompo);
});

test('a path none of the zone components has is a 400 naming it at the zone; one that ends at a scalar of one is read', async () => {
  for (const query of ['populate=field.nope', 'populate[0]=field.nope', 'populate[field][populate][nope]=true', 'populate=field.compo.nope']) {
    const { status, body } = await get(query);
    expect({ query, status, error: body.error }).toMatchObject({
      query,
      status: 400,
      error: { name: 'ValidationError', message: query.includes('compo.nope') ? 'Invalid key compo at field' : 'Invalid key nope at field', details: { param: 'populate' } },
    });
  }
  const scalar = await get('populate=field.name');
  expect(scalar.status).toBe(200);
  expect((scalar.body.data as Json).field).toEqual([withCompo[0], { __component: 'default.compo-with-other-compo', id: expect.any(Number) }]);
});

test('a deeper path populates each segment its component has, as Strapi reads it, and relations at its end', async () => {
  const { status, body } = await get('populate=dz.items.category');
  expect(status).toBe(200);
  expect((body.data as Json).dz).toEqual([
    { __component: 'default.compo-a', id: expect.any(Number), items: { id: expect.any(Number), title: 'AAAA', category: expect.objectContaining({ documentId: category.documentId, name: 'Tech' }) } },
    // compo2's category is text: its items are populated, the text is the text
    { __component: 'default.compo-b', id: expect.any(Number), items: { id: expect.any(Number), name: 'BBBB', category: 'smthg' } },
  ]);
  const other = await get('populate[0]=dz.items.category_diff');
  expect(other.status).toBe(200);
  expect((other.body.data as Json).dz).toEqual([
    { __component: 'default.compo-a', id: expect.any(Number), items: { id: expect.any(Number), title: 'AAAA' } },
    { __component: 'default.compo-b', id: expect.any(Number), items: { id: expect.any(Number), name: 'BBBB', category: 'smthg', category_diff: expect.objectContaining({ name: 'Tech' }) } },
  ]);
});

test('the object form below a zone applies each entry whole, in the components it fits', async () => {
  const { status, body } = await get('populate[dz][populate][items][populate][category][fields][0]=name');
  expect(status).toBe(200);
  expect((body.data as Json).dz).toEqual([
    { __component: 'default.compo-a', id: expect.any(Number), items: { id: expect.any(Number), title: 'AAAA', category: { id: expect.any(Number), documentId: category.documentId, name: 'Tech' } } },
    { __component: 'default.compo-b', id: expect.any(Number) },
  ]);
});

test('through a relation to a zone, and through a zone to a relation to a zone', async () => {
  const { status, body } = await get('populate=parent.field.compo&populate[dz][on][default.compo-a][populate][items][populate]=category');
  expect(status).toBe(200);
  const data = body.data as Json;
  expect((data.parent as Json).field).toEqual(withCompo);
  expect((data.dz as Json[]).map((entry) => entry.__component)).toEqual(['default.compo-a']);
  const deep = await get('populate[parent][populate][dz][populate]=items.category_diff');
  expect(deep.status).toBe(200);
  expect(((deep.body.data as Json).parent as Json).dz).toEqual([
    { __component: 'default.compo-a', id: expect.any(Number), items: { id: expect.any(Number), title: 'AAAA' } },
    { __component: 'default.compo-b', id: expect.any(Number), items: expect.objectContaining({ category_diff: expect.objectContaining({ name: 'Tech' }) }) },
  ]);
});

test('the OpenAPI document takes the dotted paths as populate items', async () => {
  const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { components: { schemas: Record<string, { anyOf?: Array<{ items?: { pattern?: string } }> }> } };
  const pattern = document.components.schemas.WithdynamiczonePopulate.anyOf?.find((form) => form.items)?.items?.pattern;
  const accepts = (item: string) => new RegExp(pattern ?? '^$').test(item);
  expect(['*', 'field', 'field.compo', 'parent.dz.items.category'].filter(accepts)).toEqual(['*', 'field', 'field.compo', 'parent.dz.items.category']);
  expect(['name', 'nope.compo', ''].filter(accepts)).toEqual([]);
});
