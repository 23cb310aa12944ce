import { call, type RestError } from '../auth/http';
import { defaultPlugins, startTestServer, type TestServer } from '../support/test-server';

/**
 * `maxReadBytes`: the cost limit counts values, not their size, so aliases of long pages of long
 * texts read hundreds of MB before their answer was refused. Here 20 documents of 10 KB titles
 * against a budget of 300 KB: a page of them passes, many aliases of it are refused.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { plugins: defaultPlugins({ graphql: { config: { maxReadBytes: 300_000 } } }) } });
  for (let index = 0; index < 20; index += 1) {
    await call(server.url, 'POST', '/api/articles?status=published', { body: { data: { title: `${index} ${'x'.repeat(10_000)}`, views: index } }, headers: server.asAdmin });
  }
});
afterAll(() => server.stop());

const aliases = (count: number, selection: string) => `{ ${Array.from({ length: count }, (_, index) => `a${index}: articles(pagination: { limit: 20 }) { ${selection} }`).join(' ')} }`;

test('GraphQL: a page passes; 20 aliases of it, even selecting only a number, are refused naming the limit', async () => {
  const one = await server.gql<{ a0: unknown[] }>(aliases(1, 'title'));
  expect(one.body.errors).toBeUndefined();
  expect(one.body.data?.a0).toHaveLength(20);
  const many = await server.gql(aliases(20, 'views'));
  expect(many.body.errors?.[0]).toMatchObject({
    message: expect.stringMatching(/^The request read more than the 300000 bytes of documents allowed \(graphql.config.maxReadBytes\)/),
    extensions: { code: 'RESPONSE_TOO_LARGE' },
  });
});

test('GraphQL: what was read before the budget went is not answered either, where the fields it fills may be null', async () => {
  const created = await call<{ data: { documentId: string } }>(server.url, 'POST', '/api/articles?status=published', { body: { data: { title: `long ${'y'.repeat(50_000)}` } }, headers: server.asAdmin });
  const one = `article(documentId: "${created.body.data.documentId}") { documentId }`;
  const aliased = (count: number) => `{ ${Array.from({ length: count }, (_, index) => `a${index}: ${one}`).join(' ')} }`;
  expect((await server.gql(aliased(5))).body.errors).toBeUndefined();
  const many = await server.gql(aliased(20));
  expect(many.body.data).toBeNull();
  expect(many.body.errors?.[0]).toMatchObject({ extensions: { code: 'RESPONSE_TOO_LARGE' } });
});

test('REST: a page within the budget passes; a populate reading past it is refused in the envelope', async () => {
  expect((await call(server.url, 'GET', '/api/articles?pagination[pageSize]=10')).status).toBe(200);
  const tag = (await call<{ data: { documentId: string } }>(server.url, 'POST', '/api/tags', { body: { data: { name: 't' } }, headers: server.asAdmin })).body.data.documentId;
  const all = (await call<{ data: Array<{ documentId: string }> }>(server.url, 'GET', '/api/articles?pagination[pageSize]=20')).body.data;
  for (const { documentId } of all) await call(server.url, 'PUT', `/api/articles/${documentId}`, { body: { data: { tags: [tag] } }, headers: server.asAdmin });
  const refused = await call<RestError>(server.url, 'GET', '/api/articles?pagination[pageSize]=20&populate[tags][populate][articles]=*');
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ data: null, error: { status: 400, name: 'ResponseTooLargeError', message: expect.stringMatching(/maxReadBytes/) } });
});
