import { PRODUCTION_ENV, startTestServer, type TestServer } from '../support/test-server';

/**
 * Client mistakes in a GraphQL request are 400s with Apollo's codes, as Strapi answers them, never
 * INTERNAL_SERVER_ERROR: each of these was one.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: PRODUCTION_ENV });
});
afterAll(() => server.stop());

interface Answer {
  status: number;
  body: { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

const post = async (body: string): Promise<Answer> => {
  const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
};
const postQuery = (query: string, variables?: unknown) => post(JSON.stringify({ query, variables }));

const expectRefused = (answer: Answer, code: string) => {
  expect(answer.status).toBe(400);
  expect(answer.body.errors?.length).toBeGreaterThan(0);
  for (const error of answer.body.errors ?? []) expect(error.extensions?.code).toBe(code);
  expect(JSON.stringify(answer.body)).not.toMatch(/\bat .+:\d+:\d+|node_modules|\/src\//);
};

test('an unknown fragment spread: GRAPHQL_VALIDATION_FAILED', async () => {
  expectRefused(await postQuery('{ articles { ...Missing } }'), 'GRAPHQL_VALIDATION_FAILED');
});

test('more than 100 validation errors: GRAPHQL_VALIDATION_FAILED', async () => {
  const fields = Array.from({ length: 150 }, (_, index) => `f${index}: nope${index}`).join(' ');
  expectRefused(await postQuery(`{ ${fields} }`), 'GRAPHQL_VALIDATION_FAILED');
});

test('a Float literal of 1e400: BAD_USER_INPUT or GRAPHQL_VALIDATION_FAILED, never a 500', async () => {
  const answer = await postQuery('{ articles(filters: { rating: { gt: 1e400 } }) { documentId } }');
  expect(answer.status).toBe(400);
  expect(['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED']).toContain(answer.body.errors?.[0].extensions?.code);
});

test('a Float variable of 1e400 (JSON parses it to Infinity): BAD_USER_INPUT', async () => {
  expectRefused(await post('{"query":"query($r: Float) { articles(filters: { rating: { gt: $r } }) { documentId } }","variables":{"r":1e400}}'), 'BAD_USER_INPUT');
});

test.each([10_000, 50_000])('a document nested %i deep: GRAPHQL_PARSE_FAILED, before the parser recurses', async (depth) => {
  expectRefused(await postQuery(`{ articles${' { articles'.repeat(depth)}${' }'.repeat(depth + 1)}`), 'GRAPHQL_PARSE_FAILED');
  expectRefused(await postQuery(`{ articles(filters: ${'{ and: ['.repeat(depth)}${']}'.repeat(depth)}) { documentId } }`), 'GRAPHQL_PARSE_FAILED');
  expectRefused(await postQuery(`{ articles${'{'.repeat(depth)}`), 'GRAPHQL_PARSE_FAILED');
});

test('malformed JSON in variables on GET: BAD_USER_INPUT', async () => {
  const response = await fetch(`${server.url}/graphql?query=${encodeURIComponent('query($n: Int) { articles(pagination: { limit: $n }) { documentId } }')}&variables=${encodeURIComponent('{"n":')}`, {
    headers: { accept: 'application/json' },
  });
  expectRefused({ status: response.status, body: (await response.json()) as Answer['body'] }, 'BAD_USER_INPUT');
});

test('a variable that does not coerce: BAD_USER_INPUT', async () => {
  expectRefused(await postQuery('query($n: Int) { articles(pagination: { limit: $n }) { documentId } }', { n: 'many' }), 'BAD_USER_INPUT');
  expectRefused(await postQuery('query($n: Int!) { articles(pagination: { limit: $n }) { documentId } }', {}), 'BAD_USER_INPUT');
});

test('a syntax error: GRAPHQL_PARSE_FAILED', async () => {
  expectRefused(await postQuery('{ articles { '), 'GRAPHQL_PARSE_FAILED');
});

test('variables that are not an object: yoga\'s BAD_REQUEST', async () => {
  expectRefused(await post('{"query":"{ articles { documentId } }","variables":[1]}'), 'BAD_REQUEST');
});

test('malformed JSON in a POST body: 400 with a code', async () => {
  const answer = await post('{"query":');
  expect(answer.status).toBe(400);
  expect(answer.body.errors?.[0].extensions?.code).toMatch(/BAD_REQUEST|BAD_USER_INPUT/);
});

test('150 over-deep aliases (more validation errors than graphql-js reports): GRAPHQL_VALIDATION_FAILED', async () => {
  const deep = `articles { ${'category { articles { '.repeat(7)}documentId${' } }'.repeat(7)} }`;
  const query = `{ ${Array.from({ length: 150 }, (_, index) => `a${index}: ${deep}`).join(' ')} }`;
  const answer = await postQuery(query);
  expect(answer.status).toBe(400);
  for (const error of answer.body.errors ?? []) expect(error.extensions?.code).toMatch(/GRAPHQL_VALIDATION_FAILED|LIMIT/);
});

describe('HTTP-level refusals carry a body', () => {
  test('415: a body type no parser reads', async () => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{ articles { documentId } }' });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }] });
  });

  test('406: an Accept no answer fits', async () => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'image/png' }, body: '{"query":"{ articles { documentId } }"}' });
    expect(response.status).toBe(406);
    expect(await response.json()).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'NOT_ACCEPTABLE' } }] });
  });

  test('404: a path under the endpoint', async () => {
    const response = await fetch(`${server.url}/graphql/nothing`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ data: null, error: { status: 404, name: 'NotFoundError' } });
  });

  test('405: a method the endpoint does not take', async () => {
    const response = await fetch(`${server.url}/graphql`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(await response.json()).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'METHOD_NOT_ALLOWED' } }] });
  });
});
