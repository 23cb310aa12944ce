import { startTestServer, type TestServer } from '../support/test-server';
import { rawRequest } from '../support/raw-http';

/** What node's parser refuses (headers or URL over `server.maxHeaderSize`, garbage) is answered in Strapi's envelope. */

const idsUrl = (count: number) => `/api/articles?${Array.from({ length: count }, (_, index) => `filters[id][$in][${index}]=${100000 + index}`).join('&')}`;

describe('default header limit (16 KB)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  test('a 20 KB header: 431 in the envelope, naming the option', async () => {
    const answer = await rawRequest(server.url, `GET /api/articles HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ data: null, error: { status: 431, name: 'RequestHeaderFieldsTooLargeError', details: {} } });
    expect(JSON.parse(answer.body).error.message).toMatch(/server\.maxHeaderSize/);
  });

  test('a URL of 1,000 ids in $in (~26 KB): 431 in the envelope', async () => {
    const answer = await rawRequest(server.url, `GET ${idsUrl(1000)} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { status: 431 } });
  });

  test('a request line that is not HTTP: 400 in the envelope', async () => {
    const answer = await rawRequest(server.url, 'HELLO THERE\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ data: null, error: { status: 400, name: 'BadRequestError', details: {} } });
  });
});

test('server.maxHeaderSize raised: the 1,000-id URL is served', async () => {
  const server = await startTestServer({ config: { server: { maxHeaderSize: 64 * 1024 } } });
  try {
    const answer = await rawRequest(server.url, `GET ${idsUrl(1000)} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ data: [] });
  } finally {
    await server.stop();
  }
});
