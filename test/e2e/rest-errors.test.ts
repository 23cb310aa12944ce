import { request as httpRequest } from 'node:http';
import { startTestServer, type TestServer } from '../support/test-server';
import { restClient, type RestClient } from '../rest/rest-client';

let server: TestServer;
let api: RestClient;
let articleId: string;

beforeAll(async () => {
  server = await startTestServer();
  api = restClient(server);
  await api.create('/api/categories', { name: 'Unique' });
  articleId = (await api.create('/api/articles', { title: 'Existing' })).documentId;
});
afterAll(() => server.stop());

const queryError = (key: string, param: string, path: string | null = null) => ({
  status: 400,
  name: 'ValidationError',
  message: expect.any(String),
  details: { key, path, source: 'query', param },
});

describe('query errors are 400 ValidationErrors naming the key', () => {
  test('an unknown top-level parameter is ignored, as Strapi 5.54 ignores it (strictQuery refuses it: v4-clients.test.ts)', async () => {
    const plain = await api.get('/api/articles?fields[0]=title');
    const { status, body } = await api.get('/api/articles?fields[0]=title&foo=bar&_=1700000000');
    expect(status).toBe(200);
    expect(body).toEqual(plain.body);
  });

  test.each([
    ['filters[nope][$eq]=x', queryError('nope', 'filters')],
    ['filters[title][$foo]=x', queryError('$foo', 'filters', 'title')],
    ['filters[views][$gt]=abc', queryError('$gt', 'filters', 'views')],
    ['filters[$or]=notarray', { status: 400, name: 'ValidationError' }],
    ['fields=__proto__', queryError('__proto__', 'fields')],
    ['fields[0]=nope', queryError('nope', 'fields')],
    ['sort=__proto__:asc', queryError('__proto__', 'sort')],
    ['sort=nope:asc', queryError('nope', 'sort')],
    ['sort=title:sideways', { status: 400, name: 'ValidationError' }],
    ['populate=nope', queryError('nope', 'populate', 'nope')],
    ['populate[category][nope]=1', { status: 400, name: 'ValidationError', details: { key: 'nope', path: 'category.nope' } }],
    ['pagination[page]=two', { status: 400, name: 'ValidationError' }],
    ['status=garbage', queryError('status', 'status')],
    ['locale=de', { status: 400, name: 'ValidationError' }],
    ['locale[0]=en', queryError('locale', 'locale')],
    ['__proto__[polluted]=1', { status: 400, name: 'ValidationError', details: { key: '__proto__', source: 'query' } }],
    ['filters[constructor][prototype][x]=1', { status: 400, name: 'ValidationError', details: { key: 'constructor', source: 'query' } }],
    ['filters[title][hasOwnProperty]=x', { status: 400, name: 'ValidationError', details: { key: 'hasOwnProperty' } }],
  ])('%s', async (search, error) => {
    const { status, body } = await api.get(`/api/articles?${search}`);
    expect(status).toBe(400);
    expect(body.data).toBeNull();
    expect(body.error).toMatchObject(error);
  });

  test('parameters a route does not take are ignored, as top-level keys are', async () => {
    const { status, body } = await api.get(`/api/articles/${articleId}?pagination[page]=1&fields[0]=title`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ documentId: articleId });
  });
});

describe('body errors', () => {
  test('missing data, data not an object', async () => {
    const expected = { data: null, error: { status: 400, name: 'ValidationError', message: 'Missing "data" payload in the request body', details: {} } };
    expect((await api.request('POST', '/api/articles', { body: { title: 'no data' } })).body).toEqual(expected);
    expect((await api.request('POST', '/api/articles', { body: { data: [] } })).body).toEqual(expected);
    expect((await api.request('POST', '/api/articles')).body).toEqual(expected);
  });

  test('malformed JSON: 400 SyntaxError, with details as every error has them', async () => {
    const { status, body } = await api.request('POST', '/api/articles', { body: '{"data": {' });
    expect(status).toBe(400);
    expect(body).toEqual({ data: null, error: { status: 400, name: 'SyntaxError', message: expect.any(String), details: {} } });
  });

  test('a key that is not an attribute', async () => {
    const { status, body } = await api.post('/api/articles', { title: 'x', nope: 1 });
    expect(status).toBe(400);
    expect(body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid key nope', details: { key: 'nope', path: null, source: 'body' } });
  });

  test('a string where a number or a blocks array is expected: every path listed', async () => {
    const { status, body } = await api.post('/api/articles', { title: 'x', views: 'many', content: 'not blocks' });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ name: 'ValidationError', details: { errors: [expect.objectContaining({ path: ['views'], name: 'ValidationError' })] } });
    const blocks = await api.post('/api/articles', { title: 'x', content: 'not blocks' });
    expect(blocks.status).toBe(400);
    expect(blocks.body.error.details.errors[0].path).toEqual(['content']);
  });

  test('required, unique, and a relation to a missing document', async () => {
    const required = await api.post('/api/articles', { summary: 'no title' });
    expect(required.body.error).toMatchObject({ status: 400, name: 'ValidationError', details: { errors: [expect.objectContaining({ path: ['title'] })] } });
    const unique = await api.post('/api/categories', { name: 'Unique' });
    expect(unique.body.error).toMatchObject({ status: 400, message: 'This attribute must be unique' });
    const missing = await api.post('/api/articles', { title: 'x', category: 'doesnotexist' });
    expect(missing.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'Document with id "doesnotexist", locale "null" not found' });
  });

  test('a body over rest.bodyLimit (1 MB) is a 413', async () => {
    const { status, body } = await api.post('/api/articles', { title: 'x'.repeat(1024 * 1024) });
    expect(status).toBe(413);
    expect(body.error).toMatchObject({ status: 413, name: 'PayloadTooLargeError' });
  });

  test('an empty body labelled JSON on GET and DELETE is accepted (the official SDK sends one)', async () => {
    const send = (method: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${server.url}${path}`, { method, headers: { ...server.asAdmin, 'content-type': 'application/json', 'content-length': '0' } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end();
      });
    expect(await send('GET', '/api/articles')).toBe(200);
    const { documentId } = await api.create('/api/articles', { title: 'Gone' });
    expect(await send('DELETE', `/api/articles/${documentId}`)).toBe(204);
  });
});

describe('status codes of the pipeline', () => {
  test('401 for a bad token, 403 without the permission', async () => {
    const unauthorized = await api.get('/api/articles', { headers: { authorization: 'Bearer not-a-valid-token' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
    const forbidden = await api.post('/api/articles', { title: 'x' }, { anonymous: true });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
  });

  test("403 before the body's data is checked: a caller who may not write learns nothing of its validation", async () => {
    for (const data of [{ nope: 1 }, { title: 5 }, { title: 'x', sections: [{ __component: 'shared.nope' }] }]) {
      const forbidden = await api.post('/api/articles', data, { anonymous: true });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.name).toBe('ForbiddenError');
    }
  });

  test('404 for an unknown route, identical to a missing document; other paths under /api fall through', async () => {
    const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
    expect((await api.get('/api/nope')).body).toEqual(notFound);
    expect((await api.get(`/api/articles/${articleId}/extra`)).body).toEqual(notFound);
    expect((await api.get('/api/article')).status).toBe(404);
  });

  test('405 for a method the route does not have, with Allow', async () => {
    const { status, body, headers } = await api.request('PATCH', `/api/articles/${articleId}`, { body: { data: {} } });
    expect(status).toBe(405);
    expect(body.error).toMatchObject({ status: 405, name: 'MethodNotAllowedError' });
    expect(headers.get('allow')).toBe('GET, PUT, DELETE');
    expect((await api.request('DELETE', '/api/articles')).status).toBe(405);
  });

  test('the GraphQL depth limit applies to populate', async () => {
    const deep = Array.from({ length: 12 }, () => 'parent').join('.');
    const { status, body } = await api.get(`/api/categories?populate=${deep}`);
    expect(status).toBe(400);
    expect(body.error.name).toBe('ValidationError');
  });
});

describe('no request makes the server answer 500 or hang', () => {
  const hostile = [
    'filters=x',
    'filters[$and]=1',
    'filters[$not]=1',
    'filters[title]=',
    'filters[title][$in]=a',
    'filters[title][$between]=a',
    'filters[views][$between][0]=1',
    'filters[category]=x',
    'filters[category][$eq]=x',
    'filters[seo][metaTitle][$eq]=x',
    'filters[sections][$null]=true',
    'filters[views][$gt][$lt]=1',
    'filters[createdAt][$eq]=garbage',
    'filters[publishDate][$eq]=2024-13-45',
    'filters[extra][$eq]=x',
    'filters[localizations][title][$eq]=x',
    'filters[views][$in][0][x]=1',
    `filters${'[$and][0]'.repeat(9)}[title][$eq]=x`,
    'filters[title][$eq]=' + 'x'.repeat(5000),
    'sort[title]=1',
    'sort[0][title][x]=1',
    'sort=',
    'sort=:desc',
    'fields[title]=1',
    'fields=',
    'populate[category]=x',
    'populate[category][fields][title]=1',
    'populate[sections][on]=x',
    'populate[sections][on][shared.quote]=x',
    'populate[tags][count]=maybe',
    'populate[tags][sort][x]=1',
    'populate[seo][filters][metaTitle][$eq]=x',
    'populate=' + 'a.'.repeat(50),
    'populate[0][0][0]=x',
    'pagination=1',
    'pagination[page]=1e3',
    'pagination[pageSize]=99999999999999999999',
    'pagination[start]=-5',
    'pagination[limit]=abc',
    'status[0]=draft',
    'locale=*',
    'locale=%00',
    '_q[0]=x',
    '_q=',
    '%E0%A4%A=bad-escape',
    'filters%5Btitle%5D%5B%24eq%5D=%E0%A4%A',
  ];
  test.each(hostile)('%s', async (search) => {
    const { status, body } = await api.get(`/api/articles?${search}`);
    expect(status).toBeLessThan(500);
    if (status !== 200) expect(body).toEqual({ data: null, error: expect.objectContaining({ status, name: expect.any(String) }) });
  });

  test.each([
    ['/api/articles', '{"data": {"sections": [{"__component": "shared.nope"}]}}'],
    ['/api/articles', '{"data": {"title": "x", "seo": {"nope": 1}}}'],
    ['/api/articles', '{"data": {"title": "x", "tags": {"connect": [{"x": 1}]}}}'],
    ['/api/articles', '{"data": {"title": "x", "cover": "abc"}}'],
    ['/api/articles', `{"data": {"title": "x", "extra": ${'['.repeat(200)}${']'.repeat(200)}}}`],
    ['/api/articles', '{"data": null}'],
    ['/api/articles', '"just a string"'],
    ['/api/articles', '[]'],
    // numeric ids name documents (as in Strapi): these name none, or are no ids
    ['/api/homepage', '{"data": {"featuredArticles": [999998, 999999]}}'],
    ['/api/homepage', '{"data": {"featuredArticles": [1.5, -2]}}'],
  ])('POST/PUT %s %s', async (path, body) => {
    const { status } = await api.request(path === '/api/homepage' ? 'PUT' : 'POST', path, { body });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });
});
