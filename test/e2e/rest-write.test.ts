import { startTestServer, type TestServer } from '../support/test-server';
import { restClient, type RestClient } from '../rest/rest-client';

let server: TestServer;
let api: RestClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  api = restClient(server);
  const now = new Date().toISOString();
  await server.folio.services.store.collection('files').insertOne({
    id: 501, documentId: 'filewrite000000000000001', name: 'a.png', hash: 'a', ext: '.png', mime: 'image/png', size: 1, url: '/uploads/a.png', provider: 'local', createdAt: now, updatedAt: now, publishedAt: now,
  });
  ids.tech = (await api.create('/api/categories', { name: 'Tech' })).documentId;
  ids.node = (await api.create('/api/tags', { name: 'node' })).documentId;
  ids.sqlite = (await api.create('/api/tags', { name: 'sqlite' })).documentId;
  ids.deno = (await api.create('/api/tags', { name: 'deno' })).documentId;
});
afterAll(() => server.stop());

const tagNames = async (documentId: string) => {
  const { body } = await api.get(`/api/articles/${documentId}?fields[0]=title&populate[tags][fields][0]=name`);
  return body.data.tags.map((tag: { name: string }) => tag.name);
};

describe('create', () => {
  test('POST: 201 with the created document, relations and components not populated, published', async () => {
    const { status, body } = await api.post('/api/articles', { title: 'Created', views: 10, kind: 'tutorial', category: ids.tech, seo: { metaTitle: 'S' } });
    expect(status).toBe(201);
    expect(body.meta).toEqual({});
    expect(Object.keys(body.data)).toEqual(['id', 'documentId', 'title', 'slug', 'summary', 'body', 'content', 'featured', 'views', 'rating', 'publishDate', 'kind', 'extra', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);
    expect(body.data).toMatchObject({ title: 'Created', views: 10, kind: 'tutorial', slug: null, featured: false, locale: 'en' });
    expect(body.data.publishedAt).toEqual(expect.any(String));
    const listed = await api.get(`/api/articles?filters[documentId][$eq]=${body.data.documentId}&fields[0]=title`, { anonymous: true });
    expect(listed.body.data).toHaveLength(1);
  });

  test('POST ?status=draft creates a draft only; POST ?populate=… answers populated', async () => {
    const draft = await api.post('/api/articles?status=draft', { title: 'Draft' });
    expect(draft.body.data.publishedAt).toBeNull();
    expect((await api.get(`/api/articles/${draft.body.data.documentId}`)).status).toBe(404);
    expect((await api.get(`/api/articles/${draft.body.data.documentId}?status=draft`)).body.data.title).toBe('Draft');
    const populated = await api.post('/api/articles?fields[0]=title&populate[category][fields][0]=name', { title: 'With category', category: ids.tech });
    expect(populated.body.data).toEqual({ id: expect.any(Number), documentId: expect.any(String), title: 'With category', category: { id: expect.any(Number), documentId: ids.tech, name: 'Tech' } });
  });

  test('relations in every form: documentId, list, connect with objects; media by numeric file id', async () => {
    const created = await api.post('/api/articles?populate=cover,gallery,author', {
      title: 'Forms',
      tags: { connect: [ids.node, { documentId: ids.sqlite }] },
      cover: 501,
      gallery: [501],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.cover).toMatchObject({ id: 501, url: '/uploads/a.png' });
    expect(created.body.data.gallery).toEqual([expect.objectContaining({ id: 501 })]);
    expect(await tagNames(created.body.data.documentId)).toEqual(['node', 'sqlite']);
  });
});

describe('update', () => {
  let id: string;
  beforeAll(async () => {
    id = (await api.create('/api/articles', {
      title: 'Original',
      summary: 'kept',
      views: 1,
      tags: [ids.node, ids.sqlite],
      seo: { metaTitle: 'T', metaDescription: 'D', keywords: [{ value: 'k' }] },
      sections: [{ __component: 'shared.quote', text: 'q' }],
    })).documentId;
  });

  test('PUT is partial: omitted attributes, relations, components and zones are kept', async () => {
    const { status, body } = await api.put(`/api/articles/${id}`, { views: 2 });
    expect(status).toBe(200);
    expect(body.meta).toEqual({});
    expect(body.data).toMatchObject({ title: 'Original', summary: 'kept', views: 2 });
    const read = await api.get(`/api/articles/${id}?populate[seo][populate]=*&populate[sections]=true&populate[tags]=true`);
    expect(read.body.data.seo).toMatchObject({ metaTitle: 'T', metaDescription: 'D', keywords: [{ value: 'k' }] });
    expect(read.body.data.sections).toHaveLength(1);
    expect(read.body.data.tags).toHaveLength(2);
  });

  test('a component given in the body replaces the stored one; null clears', async () => {
    await api.put(`/api/articles/${id}`, { seo: { metaTitle: 'New' }, summary: null });
    const { body } = await api.get(`/api/articles/${id}?populate[seo][populate]=*`);
    expect(body.data.seo).toEqual({ id: expect.any(Number), metaTitle: 'New', metaDescription: null, keywords: [] });
    expect(body.data.summary).toBeNull();
  });

  test('relations: a list sets, connect adds, disconnect removes, set replaces', async () => {
    await api.put(`/api/articles/${id}`, { tags: [ids.deno] });
    expect(await tagNames(id)).toEqual(['deno']);
    await api.put(`/api/articles/${id}`, { tags: { connect: [ids.node] } });
    expect(await tagNames(id)).toEqual(['deno', 'node']);
    await api.put(`/api/articles/${id}`, { tags: { disconnect: [ids.deno] } });
    expect(await tagNames(id)).toEqual(['node']);
    await api.put(`/api/articles/${id}`, { tags: { set: [ids.sqlite] } });
    expect(await tagNames(id)).toEqual(['sqlite']);
  });

  test('PUT ?status=draft touches only the draft; PUT ?status=published publishes it', async () => {
    await api.put(`/api/articles/${id}?status=draft`, { title: 'Draft edit' });
    expect((await api.get(`/api/articles/${id}`)).body.data.title).toBe('Original');
    expect((await api.get(`/api/articles/${id}?status=draft`)).body.data.title).toBe('Draft edit');
    const published = await api.put(`/api/articles/${id}?status=published`, {});
    expect(published.body.data).toMatchObject({ title: 'Draft edit', publishedAt: expect.any(String) });
    expect((await api.get(`/api/articles/${id}`)).body.data.title).toBe('Draft edit');
  });

  test('PUT of a missing document is 404', async () => {
    const { status, body } = await api.put('/api/articles/doesnotexist123', { title: 'x' });
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ status: 404, name: 'NotFoundError' });
  });
});

describe('delete', () => {
  test('DELETE: 204 with an empty body; the document is gone; deleting it again is 204 too', async () => {
    const { documentId } = await api.create('/api/articles', { title: 'Doomed' });
    const removed = await api.del(`/api/articles/${documentId}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await api.get(`/api/articles/${documentId}`)).status).toBe(404);
    expect((await api.del(`/api/articles/${documentId}`)).status).toBe(204);
  });
});

describe('locales', () => {
  test('PUT ?locale=fr creates the fr localization, copying non-localized attributes', async () => {
    const { documentId } = await api.create('/api/articles', { title: 'English', views: 42, featured: true, kind: 'news' });
    const french = await api.put(`/api/articles/${documentId}?locale=fr`, { title: 'Français' });
    expect(french.status).toBe(200);
    expect(french.body.data).toMatchObject({ documentId, title: 'Français', views: 42, featured: true, kind: 'news', locale: 'fr' });
    const removed = await api.del(`/api/articles/${documentId}?locale=fr`);
    expect(removed.status).toBe(204);
    expect((await api.get(`/api/articles/${documentId}?locale=fr`)).status).toBe(404);
    expect((await api.get(`/api/articles/${documentId}`)).body.data.title).toBe('English');
  });

  test('POST ?locale=fr creates a new document with only fr; the locale of a document cannot be changed', async () => {
    const created = await api.post('/api/articles?locale=fr', { title: 'Nouveau' });
    expect(created.body.data.locale).toBe('fr');
    expect((await api.get(`/api/articles/${created.body.data.documentId}`)).status).toBe(404);
    const relabel = await api.put(`/api/articles/${created.body.data.documentId}?locale=fr`, { locale: 'en' });
    expect(relabel.status).toBe(400);
    expect(relabel.body.error).toMatchObject({ message: 'Invalid key locale', details: { key: 'locale', path: null, source: 'body' } });
  });
});

describe('single type', () => {
  test('GET before creation is 404; PUT creates (200) then updates partially; status=draft; DELETE', async () => {
    expect((await api.get('/api/homepage', { anonymous: true })).status).toBe(404);
    const created = await api.put('/api/homepage', { headline: 'Welcome', seo: { metaTitle: 'Home' }, intro: [{ type: 'paragraph', children: [{ type: 'text', text: 'Intro' }] }] });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body.data)).toEqual(['id', 'documentId', 'headline', 'intro', 'createdAt', 'updatedAt', 'publishedAt']);
    const updated = await api.put('/api/homepage', { headline: 'Hello again' });
    expect(updated.body.data).toMatchObject({ documentId: created.body.data.documentId, headline: 'Hello again', intro: created.body.data.intro });
    await api.put('/api/homepage?status=draft', { headline: 'Draft headline' });
    expect((await api.get('/api/homepage', { anonymous: true })).body.data.headline).toBe('Hello again');
    expect((await api.get('/api/homepage?status=draft', { anonymous: true })).body.data.headline).toBe('Draft headline');
    const populated = await api.get('/api/homepage?populate=*', { anonymous: true });
    expect(populated.body.data).toMatchObject({ seo: { metaTitle: 'Home' }, featuredArticles: [] });
    expect((await api.del('/api/homepage')).status).toBe(204);
    expect((await api.get('/api/homepage', { anonymous: true })).status).toBe(404);
  });
});
