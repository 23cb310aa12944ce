import { startTestServer, type TestServer } from '../support/test-server';
import { restClient, type RestClient } from '../rest/rest-client';

/**
 * REST lists are clamped with REST's limits (`api.rest`) once, in the resolvers that read them: a page
 * holds what its `meta.pagination` says even where GraphQL's limits are tighter.
 */

let server: TestServer;
let api: RestClient;

beforeAll(async () => {
  server = await startTestServer({
    config: {
      api: { rest: { defaultLimit: 6, maxLimit: 8 } },
      plugins: { graphql: { config: { defaultLimit: 2, maxLimit: 3 } } },
    },
  });
  api = restClient(server);
  for (let index = 0; index < 9; index += 1) await api.create('/api/categories', { name: `Category ${index}` });
});

afterAll(() => server.stop());

const list = async (query: string) => {
  const response = await fetch(`${server.url}/api/categories${query}`, { headers: server.asAdmin });
  expect(response.status).toBe(200);
  return (await response.json()) as { data: unknown[]; meta: { pagination: Record<string, number> } };
};

test('the default REST page holds rest.defaultLimit rows, not GraphQL’s', async () => {
  const body = await list('');
  expect(body.meta.pagination).toEqual({ page: 1, pageSize: 6, pageCount: 2, total: 9 });
  expect(body.data).toHaveLength(6);
});

test('a REST page may be as large as rest.maxLimit', async () => {
  const body = await list('?pagination[pageSize]=20');
  expect(body.meta.pagination).toMatchObject({ pageSize: 8, pageCount: 2 });
  expect(body.data).toHaveLength(8);
  const offset = await list('?pagination[start]=1&pagination[limit]=7');
  expect(offset.meta.pagination).toMatchObject({ start: 1, limit: 7 });
  expect(offset.data).toHaveLength(7);
});

test('GraphQL keeps its own limits', async () => {
  const result = await server.gql('{ categories { name } all: categories(pagination: { pageSize: 50 }) { name } }', undefined, server.asAdmin);
  const data = (result.body as { data: { categories: unknown[]; all: unknown[] } }).data;
  expect(data.categories).toHaveLength(2);
  expect(data.all).toHaveLength(3);
});
