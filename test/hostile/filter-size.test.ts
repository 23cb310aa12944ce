import { call, type RestError } from '../auth/http';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * A filter costs what it takes to plan and test (graphql/filter-cost.ts), counted by the cost
 * limit that counts lists, on both surfaces, before anything is read: an anonymous `or` of 5,000
 * equalities took 8.6 s of a reader and held the main thread while SQLite planned it.
 */

const branches = (count: number, offset = 0) => ({ or: Array.from({ length: count }, (_, index) => ({ title: { eq: `t${index + offset}` } })) });
const LIST = 'query Q($f: ArticleFiltersInput) { articles(filters: $f, pagination: { limit: 100 }) { title } }';
const restBranches = (count: number, offset = 0) => Array.from({ length: count }, (_, index) => `filters[$or][${index}][title][$eq]=t${index + offset}`).join('&');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  for (let index = 0; index < 30; index += 1) {
    await call(server.url, 'POST', '/api/articles?status=published', { body: { data: { title: `t${index}` } }, headers: server.asAdmin });
  }
});
afterAll(() => server.stop());

test('GraphQL: 5,000 and 20,000 branches are refused before they run, naming the cost; two at once beside a reader', async () => {
  const started = Date.now();
  const [five, twenty, reader] = await Promise.all([
    server.gql(LIST, { f: branches(5000) }),
    server.gql(LIST, { f: branches(20000, 7) }),
    server.gql('{ articles(pagination: { limit: 5 }) { title } }'),
  ]);
  expect(Date.now() - started).toBeLessThan(5000);
  for (const refused of [five, twenty]) {
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Query cost \d+ exceeds the maximum cost of 150000: .*fewer filter conditions/),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', maxCost: 150000 },
    });
  }
  expect(reader.body.data).toEqual({ articles: expect.any(Array) });
});

test('GraphQL: an ordinary filter runs: 100 branches, 1,000 ids in one `in`', async () => {
  const hundred = await server.gql<{ articles: unknown[] }>(LIST, { f: branches(100) });
  expect(hundred.body.errors).toBeUndefined();
  expect(hundred.body.data?.articles).toHaveLength(30);
  const ids = await server.gql<{ articles: unknown[] }>(LIST, { f: { title: { in: Array.from({ length: 1000 }, (_, index) => `t${index}`) } } });
  expect(ids.body.errors).toBeUndefined();
  expect(ids.body.data?.articles).toHaveLength(30);
});

test('REST: 300 branches are refused in the envelope before they run; 40 run', async () => {
  const refused = await call<RestError>(server.url, 'GET', `/api/articles?${restBranches(300)}`);
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message: expect.stringMatching(/^The filters cost \d+, more than the maximum cost of 150000: use fewer conditions/) } });
  const ordinary = await call<{ data: unknown[] }>(server.url, 'GET', `/api/articles?${restBranches(40)}`);
  expect(ordinary.status).toBe(200);
  expect(ordinary.body.data).toHaveLength(25);
});
