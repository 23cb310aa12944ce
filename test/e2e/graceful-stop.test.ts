import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';
import { subscribe } from '../support/sse-subscription';
import { eventually } from '../support/eventually';
import { copyExampleSchema } from '../support/schema-copy';

/**
 * Stopping the server (SIGTERM in a rolling restart) lets the requests under way finish: their clients get
 * their answers, not a reset connection. Subscription streams end at once instead of holding the stop.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** A GraphQL request whose body arrives in two halves, `gap` ms apart; resolves with its status and body. */
const slowRequest = (url: string, send: (first: () => void) => void, accept = 'application/json'): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify({ query: '{ articles { title } }' });
    const call = request(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), accept } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    call.on('error', reject);
    call.write(body.slice(0, 10));
    send(() => call.end(body.slice(10)));
  });

test.each([
  ['application/json'],
  // urql's default: a client that could take a stream, asking a plain query
  ['application/graphql-response+json, application/json, text/event-stream, multipart/mixed'],
])('a request under way when the server stops is answered, and the stop waits for it (Accept: %s)', async (accept) => {
  server = await startTestServer();
  const running = server;
  let stopped = false;
  const answer = slowRequest(running.url, (rest) => {
    setTimeout(() => {
      void running.stop().then(() => (stopped = true));
      server = undefined;
      setTimeout(() => {
        expect(stopped).toBe(false);
        rest();
      }, 200);
    }, 100);
  }, accept);
  const { status, body } = await answer;
  expect(status).toBe(200);
  expect(JSON.parse(body)).toHaveProperty('data.articles');
  // the stop ends once the answer is out: closing the store after it takes a moment under a loaded suite
  await eventually(() => stopped, 3000);
});

test('a subscription stream does not hold the stop', async () => {
  server = await startTestServer();
  const stream = await subscribe(server, 'subscription { articleCreated { documentId } }');
  expect(stream.status).toBe(200);
  const started = Date.now();
  await server.stop();
  server = undefined;
  expect(Date.now() - started).toBeLessThan(2000);
  stream.close();
});

test('a request whose client left is worked to its end before the store closes', async () => {
  // a middleware of the project's own (Strapi's layout) holds the list for PAUSE_MS, then reads through the store,
  // and writes how that read ended beside itself
  const PAUSE_MS = 400;
  const schema = copyExampleSchema();
  schema.write(
    'api/article/routes/article.js',
    "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::article.article', { config: { find: { middlewares: ['api::article.pause'] } } });",
  );
  schema.write(
    'api/article/middlewares/pause.js',
    `module.exports = () => async (ctx, next) => {
      await new Promise((resolve) => setTimeout(resolve, ${PAUSE_MS}));
      let outcome = 'read';
      try { await next(); } catch (error) { outcome = String(error); }
      require('node:fs').writeFileSync(require('node:path').join(__dirname, 'outcome.txt'), outcome);
    };`,
  );
  const outcome = () => readFileSync(join(schema.schemaDir, 'api/article/middlewares/outcome.txt'), 'utf8');
  try {
    server = await startTestServer({ schemaDir: schema.schemaDir });
    const running = server;
    server = undefined;
    await new Promise<void>((resolve) => {
      const call = request(`${running.url}/api/articles`, () => undefined);
      call.on('error', () => resolve());
      call.end();
      // the client leaves while the middleware waits
      setTimeout(() => call.destroy(), 100);
    });
    const stopping = Date.now();
    await running.stop();
    expect(outcome()).toBe('read');
    // the stop waited for the request's end, about PAUSE_MS after it began
    expect(Date.now() - stopping).toBeGreaterThan(PAUSE_MS / 2);
  } finally {
    schema.remove();
  }
});
