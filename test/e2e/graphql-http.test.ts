import { request as httpRequest } from 'node:http';
import { startTestServer, type TestServer } from '../support/test-server';

/** The HTTP front of /graphql: the body limit, chunked bodies, and what reaches yoga unchanged. */

const BODY_LIMIT = 4096;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { api: { rest: { bodyLimit: BODY_LIMIT } } } });
});
afterAll(() => server.stop());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** POSTs `body` in `chunks` pieces: one piece with a Content-Length, several with chunked encoding. */
const post = (body: string, chunks: number, headers: Record<string, string> = {}): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const buffer = Buffer.from(body);
    const request = httpRequest(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(chunks === 1 ? { 'content-length': String(buffer.length) } : {}), ...headers },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    const size = Math.ceil(buffer.length / chunks);
    for (let start = 0; start < buffer.length; start += size) request.write(buffer.subarray(start, start + size));
    request.end();
  });

const query = (padding = 0) => JSON.stringify({ query: `{ articles { title } }${' '.repeat(padding)}` });

describe('request bodies', () => {
  test('a body with its length declared answers as usual', async () => {
    const answer = await post(query(), 1);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ data: { articles: [] } });
  });

  test('a chunked body within the limit answers the same, headers included', async () => {
    const declared = await post(query(), 1);
    const chunked = await post(query(), 5);
    expect(chunked.status).toBe(200);
    expect(chunked.body).toBe(declared.body);
    expect(chunked.headers['content-type']).toBe(declared.headers['content-type']);
  });

  test.each([
    ['declared', 1],
    ['chunked', 8],
  ])('a %s body over rest.bodyLimit is a 413 REQUEST_ENTITY_TOO_LARGE, and the server goes on', async (_, chunks) => {
    const answer = await post(query(BODY_LIMIT), chunks);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ errors: [{ message: 'Request body too large', extensions: { code: 'REQUEST_ENTITY_TOO_LARGE' } }] });
    expect((await post(query(), chunks)).status).toBe(200);
  });

  test('a chunked request keeps yoga\'s content negotiation and validation status', async () => {
    const answer = await post(JSON.stringify({ query: '{ nope }' }), 3, { accept: 'application/graphql-response+json' });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
  });
});

describe('caching', () => {
  test('every answer says no-store (it depends on the caller), GET and POST, success and error', async () => {
    expect((await post(query(), 1)).headers['cache-control']).toBe('no-store');
    expect((await post(JSON.stringify({ query: '{ nope }' }), 1)).headers['cache-control']).toBe('no-store');
    const viaGet = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ articles { title } }')}`, { headers: { accept: 'application/json' } });
    expect(viaGet.status).toBe(200);
    expect(viaGet.headers.get('cache-control')).toBe('no-store');
  });
});
