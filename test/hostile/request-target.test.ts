import { PRODUCTION_ENV, startTestServer, type TestServer } from '../support/test-server';
import { rawRequest } from '../support/raw-http';

/**
 * What a client writes in the request line and `Host` decides nothing about whether Folio can
 * answer: a bad `Host` on /graphql was a 500 with a stack trace (or no answer at all with a
 * chunked body), a path starting with `//` a 500. Production mode, where nothing may leak.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: PRODUCTION_ENV });
});
afterAll(() => server.stop());

const QUERY = '{"query":"{__typename}"}';
const graphqlPost = (host: string, chunked: boolean) =>
  `POST /graphql HTTP/1.1\r\n${host === 'none' ? '' : `Host: ${host}\r\n`}Content-Type: application/json\r\nConnection: close\r\n` +
  (chunked ? `Transfer-Encoding: chunked\r\n\r\n${QUERY.length.toString(16)}\r\n${QUERY}\r\n0\r\n\r\n` : `Content-Length: ${QUERY.length}\r\n\r\n${QUERY}`);

const LEAKS = /\bat .+:\d+:\d+|node_modules|\/src\/|Error: /;

describe.each([false, true])('POST /graphql, chunked: %s', (chunked) => {
  test.each(['bad host', 'x:99999', '[::1', ''])('Host %j: answered as any other request', async (host) => {
    const answer = await rawRequest(server.url, graphqlPost(host, chunked));
    expect(answer.timedOut).toBe(false);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ data: { __typename: 'Query' } });
  });
});

test('HTTP/1.1 without a Host header: 400 in the envelope', async () => {
  const answer = await rawRequest(server.url, graphqlPost('none', false));
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.body)).toMatchObject({ data: null, error: { status: 400, name: 'BadRequestError', message: 'An HTTP/1.1 request must have a Host header' } });
});

test.each(['//', '///', '//x:99999/api/articles', '//api/articles', '//graphql'])('GET %s: 404 in the envelope', async (path) => {
  const answer = await rawRequest(server.url, `GET ${path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
  expect(answer.status).toBe(404);
  expect(JSON.parse(answer.body)).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
});

test.each(['*', 'http://elsewhere.example/api/articles'])('a request target that is not a path (%s): 400 in the envelope', async (target) => {
  const answer = await rawRequest(server.url, `GET ${target} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.body)).toMatchObject({ data: null, error: { status: 400, name: 'BadRequestError', details: {} } });
  expect(answer.body).not.toMatch(LEAKS);
});

test('REST with a bad Host: served', async () => {
  const answer = await rawRequest(server.url, 'GET /api/articles HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n');
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toMatchObject({ data: [] });
});
