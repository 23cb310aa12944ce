import { call } from '../auth/http';
import { fragmentFanOut } from '../support/hostile-documents';
import { defaultPlugins, startTestServer, type TestServer } from '../support/test-server';

/**
 * Every analysis of a document is linear in its size. 25 fragments, each spreading the one before
 * twice, made 2^25 paths that the cost and depth analyses walked one by one: 41 s of the main
 * thread for 1.5 KB. Here 2^50 paths: walked per path, none of these would ever answer. Each
 * document is new to the server (its own operation name), so no cache answers.
 */

const nested = (levels: number) => `${'category { articles { '.repeat(levels)}title${' } }'.repeat(levels)}`;

describe('with the default limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await call(server.url, 'POST', '/api/tags', { body: { data: { name: 'one' } }, headers: server.asAdmin });
  });
  afterAll(() => server.stop());

  test('2^50 paths through fragments are refused by the cost limit, while the server goes on answering', async () => {
    const refused = server.gql(fragmentFanOut(50, 'name', 'Fan50'));
    const health = await fetch(`${server.url}/_health`);
    expect(health.status).toBe(200);
    const answer = await refused;
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Query cost \d/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
  });

  test('too deep through 2^50 paths is refused by the depth limit', async () => {
    const answer = await server.gql(fragmentFanOut(50, `articles { ${nested(6)} }`, 'Deep50'));
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.map((error) => error.message)).toContain("'Deep50' exceeds maximum operation depth of 10");
  });
});

test('with the cost limit off, 2^50 paths run: depth, authorization and execution count each fragment once', async () => {
  const server = await startTestServer({ config: { plugins: defaultPlugins({ graphql: { config: { maxCost: false } } }) } });
  try {
    await call(server.url, 'POST', '/api/tags', { body: { data: { name: 'one' } }, headers: server.asAdmin });
    const answer = await server.gql(fragmentFanOut(50, 'name', 'Open50'));
    expect(answer.body).toEqual({ data: { tags: [{ name: 'one' }] } });
  } finally {
    await server.stop();
  }
});
