import perfHooks, { type IntervalHistogram } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultPlugins, startTestServer, FULL_ACCESS_TOKEN, type TestServer } from '../support/test-server';
import { call } from '../auth/http';

/** `/metrics` (`server.metrics`): Prometheus' text format over HTTP, off by default, or behind a token. */

const METRICS_TOKEN = 'metrics-token-0123456789';

/** The value of the sample with exactly these labels, or undefined. */
const sample = (text: string, name: string, labels: Record<string, string> = {}): number | undefined => {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_][a-z0-9_]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = match[2] ? match[2].split(',') : [];
    if (have.length === wanted.length && wanted.every((label) => have.includes(label))) return Number(match[3]);
  }
  return undefined;
};

describe('server.metrics: true', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      config: {
        server: { metrics: true },
        plugins: defaultPlugins({ 'users-permissions': { config: { rateLimit: { max: 1, windowMs: 60_000 }, roles: { public: { permissions: ['api::article.article.find'] } } } } }),
      },
    });
  });
  afterAll(() => server.stop());

  test('requests by surface, operation and status, latency histograms, store call timings, connections, rate-limit refusals', async () => {
    await server.gql('mutation { createArticle(data: { title: "Measured" }) { title } }', undefined, server.asAdmin);
    expect((await call(server.url, 'GET', '/api/articles')).status).toBe(200);
    expect((await server.gql('query Titles { articles { title } }')).status).toBe(200);
    expect((await server.gql('query Hidden { tags { name } }')).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await call(server.url, 'GET', '/api/nothing-here')).status).toBe(404);
    for (const expected of [400, 429]) {
      expect((await call(server.url, 'POST', '/api/auth/local', { body: { identifier: 'nobody', password: 'whatever' } })).status).toBe(expected);
    }

    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(sample(text, 'folio_http_requests_total', { surface: 'rest', status: '200' })).toBe(1);
    expect(sample(text, 'folio_http_requests_total', { surface: 'rest', status: '404' })).toBe(1);
    expect(sample(text, 'folio_http_requests_total', { surface: 'graphql', status: '200' })).toBe(3);
    expect(sample(text, 'folio_operations_total', { surface: 'rest', operation: 'articles_connection', status: '200' })).toBe(1);
    expect(sample(text, 'folio_operations_total', { surface: 'graphql', operation: 'Titles', status: '200' })).toBe(1);
    expect(sample(text, 'folio_operations_total', { surface: 'graphql', operation: 'Hidden', status: '403' })).toBe(1);
    expect(sample(text, 'folio_http_request_duration_seconds_count', { surface: 'graphql' })).toBe(3);
    expect(sample(text, 'folio_http_request_duration_seconds_bucket', { surface: 'rest', le: '+Inf' })).toBe(4);
    expect(sample(text, 'folio_operation_duration_seconds_count', { surface: 'graphql', operation: 'Titles' })).toBe(1);
    // GraphQL's list reads a page; REST's list reads its page with the total
    expect(sample(text, 'folio_store_call_duration_seconds_count', { collection: 'articles', method: 'find' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'folio_store_call_duration_seconds_count', { collection: 'articles', method: 'findPage' })).toBe(1);
    expect(sample(text, 'folio_store_call_duration_seconds_count', { collection: 'articles', method: 'insertOne' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'folio_active_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'folio_rate_limit_refusals_total', { surface: 'rest' })).toBe(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  test('the event loop delay since the previous scrape: a 300 ms block shows in its max and p99, and is gone from the next window', async () => {
    const scrape = async () => (await fetch(`${server.url}/metrics`)).text();
    await scrape();
    // the server runs in this process: blocking the test blocks the server's loop. The pause first lets the
    // monitor take a sample after the scrape's reset (the interval spanning a reset is not counted).
    await sleep(50);
    const until = Date.now() + 300;
    while (Date.now() < until);
    await sleep(50);
    const blocked = await scrape();
    expect(sample(blocked, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThanOrEqual(0.25);
    expect(sample(blocked, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0.25);
    expect(sample(blocked, 'nodejs_eventloop_lag_min_seconds')).toBeLessThan(0.25);
    expect(sample(blocked, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    await sleep(100);
    expect(sample(await scrape(), 'nodejs_eventloop_lag_max_seconds')).toBeLessThan(0.25);
  });
});

test("stopping the server stops its event-loop monitor (prom-client's default one ran on after it)", async () => {
  const monitors: IntervalHistogram[] = [];
  const original = perfHooks.monitorEventLoopDelay;
  const spy = jest.spyOn(perfHooks, 'monitorEventLoopDelay').mockImplementation((options) => {
    const monitor = original(options);
    monitors.push(monitor);
    return monitor;
  });
  try {
    const server = await startTestServer({ config: { server: { metrics: true } } });
    await server.stop();
  } finally {
    spy.mockRestore();
  }
  expect(monitors).toHaveLength(1);
  await sleep(30);
  const samples = monitors[0].count;
  await sleep(100);
  expect(monitors[0].count).toBe(samples);
});

test('off by default: /metrics is a 404', async () => {
  const server = await startTestServer();
  try {
    const answer = await call(server.url, 'GET', '/metrics');
    expect(answer.status).toBe(404);
  } finally {
    await server.stop();
  }
});

test('behind a token: 401 in the error envelope without it (another credential too), the figures with it', async () => {
  const server = await startTestServer({ config: { server: { metrics: { token: METRICS_TOKEN } } } });
  try {
    for (const headers of [{}, { authorization: `Bearer ${FULL_ACCESS_TOKEN}` }] as Array<Record<string, string>>) {
      const refused = await call(server.url, 'GET', '/metrics', { headers });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ data: null, error: { status: 401, name: 'UnauthorizedError' } });
    }
    const allowed = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('# TYPE folio_http_requests_total counter');
  } finally {
    await server.stop();
  }
});

test('a server.metrics that is neither a boolean nor { token } stops start-up naming it', async () => {
  await expect(startTestServer({ config: { server: { metrics: 'yes' } } })).rejects.toThrow(/server\.json: metrics must be a boolean or an object/);
});
