import { startTestServer, type TestServer } from '../support/test-server';

/**
 * graphql-js' merge rule compares every pair of fields sharing a response name: 400 copies of
 * `categories { name(x: i) }` (10 KB, no alias) held the event loop 0.5 s, found by the fuzzer.
 * More than 30 fields under one name in one selection set are refused before graphql-js validates.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const repeated = (count: number, field: (index: number) => string) => Array.from({ length: count }, (_, index) => field(index)).join(' ');

test.each([
  ['differing arguments', (index: number) => `categories { name(x: ${index}) }`],
  ['the same field', () => 'categories { name }'],
  ['through fragments', (index: number) => `...F${index}`],
])('400 fields under one name (%s) are refused in one pass, naming the field', async (_, field) => {
  const fragments = repeated(400, (index) => `fragment F${index} on Query { categories { name } }`);
  const query = `query R { ${repeated(400, field)} }${field(0).startsWith('...') ? ` ${fragments}` : ''}`;
  const started = Date.now();
  const answer = await server.gql(query);
  expect(Date.now() - started).toBeLessThan(200);
  expect(answer.status).toBe(400);
  expect(answer.body.errors).toEqual([
    expect.objectContaining({ message: 'A selection set selects "categories" 400 times: at most 30 fields may share a name in one selection set', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
  ]);
});

test('30 fields under one name pass', async () => {
  const answer = await server.gql(`{ ${repeated(30, () => 'categories { name }')} }`);
  expect(answer.status).toBe(200);
  expect(answer.body.errors).toBeUndefined();
});
