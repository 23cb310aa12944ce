import type { TestServer } from '../support/test-server';
import { call, type RestError } from '../auth/http';
import { startAuthServer } from '../auth/auth-server';

/** Sign-in and sign-up share one budget per client IP, on both surfaces: 429 past it. */

let server: TestServer;
beforeAll(async () => {
  server = await startAuthServer({ rateLimit: { max: 3, windowMs: 60_000 } });
});
afterAll(() => server.stop());

test('the fourth attempt in the window is 429 on REST and GraphQL, whatever the route', async () => {
  const first = await call(server.url, 'POST', '/api/auth/local', { body: { identifier: 'nobody', password: 'whatever' } });
  expect(first.status).toBe(400);
  expect(first.headers.get('x-ratelimit-limit')).toBe('3');
  expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
  await call(server.url, 'POST', '/api/auth/local/register', { body: { username: 'someone', email: 'someone@example.com', password: 'Passw0rd!' } });
  await server.gql('mutation { login(input: { identifier: "someone", password: "wrong-one" }) { jwt } }');

  const rest = await call<RestError>(server.url, 'POST', '/api/auth/local', { body: { identifier: 'someone', password: 'Passw0rd!' } });
  expect(rest.status).toBe(429);
  expect(rest.body.error).toEqual({ status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} });
  expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(rest.headers.get('x-ratelimit-remaining')).toBe('0');

  const graphql = await server.gql('mutation { register(input: { username: "late", email: "late@example.com", password: "Passw0rd!" }) { jwt } }');
  expect(graphql.status).toBe(429);
  expect(graphql.body.errors![0]).toMatchObject({ message: 'Too many requests, please try again later.', extensions: { code: 'RATE_LIMITED', error: { name: 'RateLimitError' } } });
  const late = await server.folio.services.store.collection('up_users').countDocuments({ username: 'late' });
  expect(late).toBe(0);
});

test('other routes are not limited', async () => {
  expect((await server.gql('{ articles { title } }')).status).toBe(200);
});
