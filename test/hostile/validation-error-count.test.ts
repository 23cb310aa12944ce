import { startTestServer, type TestServer } from '../support/test-server';

/**
 * graphql-js stops validating at its 100th error and answers those with one more saying so. A rule
 * that reported from its factory, outside that stop's catch, let it escape as an
 * INTERNAL_SERVER_ERROR: the depth limit did, once per path too deep. Many errors are a client's
 * mistake: a 400 `GRAPHQL_VALIDATION_FAILED` with the errors found.
 */

const deep = (levels: number) => `${'parent { '.repeat(levels)}name${' }'.repeat(levels)}`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const expectValidationFailure = (answer: Awaited<ReturnType<TestServer['gql']>>) => {
  expect(answer.status).toBe(400);
  expect(answer.body.errors?.length).toBeGreaterThan(0);
  for (const error of answer.body.errors ?? []) expect(error.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
};

test("101 selections 12 deep (the issue's document) are one validation error", async () => {
  const answer = await server.gql(`{ categories { ${Array.from({ length: 101 }, () => deep(12)).join(' ')} } }`);
  expectValidationFailure(answer);
  // refused before graphql-js validates: 101 fields named parent in one selection set
  expect(answer.body.errors?.map((error) => error.message)).toEqual(['A selection set selects "parent" 101 times: at most 30 fields may share a name in one selection set']);
});

test('20 selections 12 deep are one depth error', async () => {
  const answer = await server.gql(`{ categories { ${Array.from({ length: 20 }, () => deep(12)).join(' ')} } }`);
  expectValidationFailure(answer);
  expect(answer.body.errors?.map((error) => error.message)).toEqual(["'' exceeds maximum operation depth of 10"]);
});

test('110 operations too deep: the first 100 errors and the stop, never an INTERNAL_SERVER_ERROR', async () => {
  const operations = Array.from({ length: 110 }, (_, index) => `query Q${index} { categories { ${deep(11)} } }`).join(' ');
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: operations, operationName: 'Q0' }),
  });
  const answer = { status: response.status, body: (await response.json()) as Awaited<ReturnType<TestServer['gql']>>['body'] };
  expect(answer.status).toBe(400);
  expect(answer.body.errors?.some((error) => error.extensions?.code === 'INTERNAL_SERVER_ERROR')).toBe(false);
  expect(answer.body.errors).toHaveLength(101);
  expect(answer.body.errors?.[0].message).toBe("'Q0' exceeds maximum operation depth of 10");
  expect(answer.body.errors?.[100].message).toMatch(/^Too many validation errors/);
});

test('150 unknown fields: the first 100 errors and the stop', async () => {
  const answer = await server.gql(`{ categories { ${Array.from({ length: 150 }, (_, index) => `x${index}`).join(' ')} } }`);
  expectValidationFailure(answer);
  expect(answer.body.errors).toHaveLength(101);
});
