import Strapi from 'strapi-sdk-js';
import { startTestServer, FULL_ACCESS_TOKEN, type TestServer } from '../support/test-server';
import { restClient, type RestClient } from '../rest/rest-client';

/**
 * A Strapi v4 frontend against Folio: strapi-sdk-js 2.x (the v4-era SDK) with the
 * `Strapi-Response-Format: v4` header, as Strapi 5's migration guide tells v4 clients to send.
 */

let server: TestServer;
let api: RestClient;
let v4: Strapi;
const ids: Record<string, string> = {};

interface V4Entry {
  id: number;
  documentId: string;
  attributes: Record<string, unknown>;
}
interface V4List {
  data: V4Entry[];
  meta: { pagination: Record<string, number> };
}
interface V4One {
  data: V4Entry;
  meta: Record<string, unknown>;
}

const v4Client = (headers: Record<string, string>) =>
  new Strapi({ url: server.url, prefix: '/api', axiosOptions: { headers: { 'Strapi-Response-Format': 'v4', ...headers } } });

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as { data: null; error: { status: number; name: string; message: string } };
  }
  throw new Error('expected the request to be refused');
};

beforeAll(async () => {
  server = await startTestServer();
  api = restClient(server);
  v4 = v4Client({ Authorization: `Bearer ${FULL_ACCESS_TOKEN}` });
  ids.tech = (await api.create('/api/categories', { name: 'Tech' })).documentId;
  ids.life = (await api.create('/api/categories', { name: 'Life' })).documentId;
  ids.hello = (await api.create('/api/articles', { title: 'Hello', views: 5, category: ids.tech, seo: { metaTitle: 'Hello SEO' } })).documentId;
  ids.second = (await api.create('/api/articles', { title: 'Second', views: 50, category: ids.life })).documentId;
  ids.draft = (await api.post('/api/articles?status=draft', { title: 'Only a draft', views: 1 })).body.data.documentId;
  await api.put(`/api/articles/${ids.hello}?locale=fr`, { title: 'Bonjour' });
});
afterAll(() => server.stop());

describe('a v4 client (strapi-sdk-js 2.x, Strapi-Response-Format: v4)', () => {
  test('find with filters, sort, pagination, fields and populate: { id, documentId, attributes }, relations as { data }', async () => {
    const answer = (await v4.find('articles', {
      filters: { views: { $gte: 5 } },
      sort: ['views:desc'],
      fields: ['title', 'views'],
      populate: { category: { fields: ['name'] }, seo: true },
      pagination: { page: 1, pageSize: 10 },
    })) as unknown as V4List;
    expect(answer.data).toEqual([
      {
        id: expect.any(Number),
        documentId: ids.second,
        attributes: { title: 'Second', views: 50, category: { data: { id: expect.any(Number), documentId: ids.life, attributes: { name: 'Life' } } }, seo: null },
      },
      {
        id: expect.any(Number),
        documentId: ids.hello,
        attributes: {
          title: 'Hello',
          views: 5,
          category: { data: { id: expect.any(Number), documentId: ids.tech, attributes: { name: 'Tech' } } },
          seo: { id: expect.any(Number), metaTitle: 'Hello SEO', metaDescription: null },
        },
      },
    ]);
    expect(answer.meta.pagination).toEqual({ page: 1, pageSize: 10, pageCount: 1, total: 2 });
  });

  test('publicationState=preview reads drafts, live the published versions', async () => {
    const titles = async (publicationState: 'live' | 'preview') =>
      ((await v4.find('articles', { publicationState, fields: ['title', 'publishedAt'], sort: 'title' })) as unknown as V4List).data.map((entry) => entry.attributes);
    expect(await titles('live')).toEqual([
      { title: 'Hello', publishedAt: expect.any(String) },
      { title: 'Second', publishedAt: expect.any(String) },
    ]);
    expect(await titles('preview')).toEqual([
      { title: 'Hello', publishedAt: null },
      { title: 'Only a draft', publishedAt: null },
      { title: 'Second', publishedAt: null },
    ]);
  });

  test('locale', async () => {
    const answer = (await v4.find('articles', { locale: 'fr', fields: ['title', 'locale'] })) as unknown as V4List;
    expect(answer.data).toEqual([{ id: expect.any(Number), documentId: ids.hello, attributes: { title: 'Bonjour', locale: 'fr' } }]);
  });

  test('findOne, and its 404 in the error envelope', async () => {
    const one = (await v4.findOne('articles', ids.hello, { fields: ['title'], populate: ['category'] })) as unknown as V4One;
    expect(one).toEqual({
      data: { id: expect.any(Number), documentId: ids.hello, attributes: { title: 'Hello', category: { data: expect.objectContaining({ documentId: ids.tech }) } } },
      meta: {},
    });
    const missing = await refusal(v4.findOne('articles', 'nosuchdocument0000000000'));
    expect(missing).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });

  test('create a draft with publishedAt: null, publish it by update with a date, delete it', async () => {
    const created = (await v4.create('articles', { title: 'v4 draft', publishedAt: null })) as unknown as V4One;
    expect(created.data).toMatchObject({ documentId: expect.any(String), attributes: { title: 'v4 draft', publishedAt: null } });
    const { documentId } = created.data;
    expect((await api.get(`/api/articles/${documentId}`)).status).toBe(404);

    const updated = (await v4.update('articles', documentId, { title: 'v4 published', publishedAt: new Date().toISOString() })) as unknown as V4One;
    expect(updated.data.attributes).toMatchObject({ title: 'v4 published', publishedAt: expect.any(String) });
    expect((await api.get(`/api/articles/${documentId}`)).body.data.title).toBe('v4 published');

    await v4.delete('articles', documentId);
    expect((await api.get(`/api/articles/${documentId}?status=draft`)).status).toBe(404);
  });

  test('a publishedAt that is neither a date nor null is a 400 naming it', async () => {
    const refused = await refusal(v4.create('articles', { title: 'x', publishedAt: 'yesterday' }));
    expect(refused.error).toMatchObject({ status: 400, name: 'ValidationError', details: { errors: [{ path: ['publishedAt'] }] } });
  });
});

describe('v4 habits without the v4 header, as Strapi 5 answers them', () => {
  test('publicationState is ignored: published versions', async () => {
    const { status, body } = await api.get('/api/articles?publicationState=preview&fields[0]=title&sort=title');
    expect(status).toBe(200);
    expect(body.data.map((article: { title: string }) => article.title)).toEqual(['Hello', 'Second']);
  });

  test('publishedAt in a body is accepted and ignored: a POST without status publishes', async () => {
    for (const publishedAt of [null, '2020-01-01T00:00:00.000Z']) {
      const { status, body } = await api.post('/api/articles', { title: `ignored ${publishedAt}`, publishedAt });
      expect(status).toBe(201);
      expect(body.data.publishedAt).toEqual(expect.any(String));
      expect(body.data.publishedAt).not.toBe('2020-01-01T00:00:00.000Z');
      await api.del(`/api/articles/${body.data.documentId}`);
    }
    const updated = await api.put(`/api/articles/${ids.second}`, { views: 51, publishedAt: null });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ views: 51, publishedAt: expect.any(String) });
  });

  test('unknown top-level keys (cache-busters, analytics tags) are ignored', async () => {
    const { status, body } = await api.get('/api/articles?fields[0]=title&sort=title&foo=1&_=1700000000&utm_source=news');
    expect(status).toBe(200);
    expect(body.data.map((article: { title: string }) => article.title)).toEqual(['Hello', 'Second']);
  });
});

describe('api.rest.strictQuery: true', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ config: { api: { rest: { strictQuery: true } } } });
  });
  afterAll(() => strict.stop());

  test('an unknown top-level key is a 400 naming it; the known ones still pass', async () => {
    const client = restClient(strict);
    const { status, body } = await client.get('/api/articles?foo=1');
    expect(status).toBe(400);
    expect(body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid key foo', details: { key: 'foo', path: null, source: 'query' } } });
    expect((await client.get('/api/articles?publicationState=live&sort=title')).status).toBe(200);
    expect((await client.get('/api/articles/x?pagination[page]=1')).body.error).toMatchObject({ message: 'Invalid key pagination' });
  });
});
