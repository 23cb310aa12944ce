import { startTestServer, type TestServer } from '../support/test-server';
import { queryString, restClient, type RestClient } from '../rest/rest-client';

let server: TestServer;
let api: RestClient;
const ids: Record<string, string> = {};

const ARTICLE_KEYS = ['id', 'documentId', 'title', 'slug', 'summary', 'body', 'content', 'featured', 'views', 'rating', 'publishDate', 'kind', 'extra', 'createdAt', 'updatedAt', 'publishedAt', 'locale'];

const seedFile = async () => {
  const now = new Date().toISOString();
  await server.folio.services.store.collection('files').insertOne({
    id: 901,
    documentId: 'filepixel0000000000000001',
    name: 'pixel.png',
    alternativeText: 'a pixel',
    caption: null,
    width: 8,
    height: 8,
    formats: null,
    hash: 'pixel_abc',
    ext: '.png',
    mime: 'image/png',
    size: 0.11,
    url: '/uploads/pixel_abc.png',
    previewUrl: null,
    provider: 'local',
    provider_metadata: null,
    createdAt: now,
    updatedAt: now,
    publishedAt: now,
  });
};

beforeAll(async () => {
  server = await startTestServer();
  api = restClient(server);
  await seedFile();
  const tech = await api.create('/api/categories', { name: 'Tech', description: 'All about tech' });
  const js = await api.create('/api/categories', { name: 'JavaScript', parent: tech.documentId });
  const node = await api.create('/api/tags', { name: 'node', weight: 1.5 });
  const sqlite = await api.create('/api/tags', { name: 'sqlite', weight: 0.5 });
  const ada = await api.create('/api/authors', { name: 'Ada Lovelace', email: 'ada@example.com' });
  Object.assign(ids, { tech: tech.documentId, js: js.documentId, node: node.documentId, sqlite: sqlite.documentId, ada: ada.documentId });
  const hello = await api.create('/api/articles', {
    title: 'Hello World',
    slug: 'hello-world',
    summary: 'First post',
    featured: true,
    views: 3,
    rating: 4.5,
    publishDate: '2024-01-15',
    kind: 'news',
    extra: { a: 1 },
    category: ids.tech,
    tags: [ids.node, ids.sqlite],
    author: { connect: [{ documentId: ids.ada }] },
    cover: 901,
    gallery: [901],
    seo: { metaTitle: 'Hello SEO', metaDescription: 'SEO description', keywords: [{ value: 'hello' }, { value: 'world' }] },
    sections: [
      { __component: 'shared.quote', text: 'To be or not to be', source: 'Hamlet' },
      { __component: 'shared.rich-text', body: 'Some **rich** text' },
    ],
  });
  ids.hello = hello.documentId;
  ids.second = (await api.create('/api/articles', { title: 'Second post', slug: 'second-post', views: 10, kind: 'tutorial', category: ids.js, tags: [ids.node] })).documentId;
  ids.third = (await api.create('/api/articles', { title: 'Third post', views: 20, rating: 2.25, kind: 'opinion' })).documentId;
  ids.draft = (await api.create('/api/articles?status=draft', { title: 'Draft only', views: 99 })).documentId;
  await api.put(`/api/articles/${ids.hello}?locale=fr`, { title: 'Bonjour le monde', slug: 'bonjour-le-monde' });
});
afterAll(() => server.stop());

const titles = (body: { data: Array<{ title: string }> }) => body.data.map((article) => article.title);

describe('REST envelope and documents', () => {
  test('a list: published, default locale, page size 25, flattened documents in Strapi key order', async () => {
    const { status, body } = await api.get('/api/articles', { anonymous: true });
    expect(status).toBe(200);
    expect(titles(body)).toEqual(['Hello World', 'Second post', 'Third post']);
    expect(body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 3 } });
    const [first] = body.data;
    expect(Object.keys(first)).toEqual(ARTICLE_KEYS);
    expect(first).toMatchObject({ documentId: ids.hello, featured: true, views: 3, rating: 4.5, publishDate: '2024-01-15', kind: 'news', extra: { a: 1 }, locale: 'en' });
    expect(typeof first.id).toBe('number');
    expect(first.publishedAt).toEqual(expect.any(String));
  });

  test('one document: `meta` is empty; a missing one is 404', async () => {
    const { status, body } = await api.get(`/api/articles/${ids.hello}`, { anonymous: true });
    expect(status).toBe(200);
    expect(body.meta).toEqual({});
    expect(Object.keys(body.data)).toEqual(ARTICLE_KEYS);
    const missing = await api.get('/api/articles/doesnotexist123', { anonymous: true });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });

  test('types without draft & publish or i18n: publishedAt set, no locale', async () => {
    const { body } = await api.get(`/api/categories/${ids.tech}`);
    expect(Object.keys(body.data)).toEqual(['id', 'documentId', 'name', 'description', 'createdAt', 'updatedAt', 'publishedAt']);
  });
});

describe('fields', () => {
  test('fields[0]=title and fields=title,views: id and documentId always, locale only if asked', async () => {
    const indexed = await api.get('/api/articles?fields[0]=title');
    expect(indexed.body.data[0]).toEqual({ id: expect.any(Number), documentId: ids.hello, title: 'Hello World' });
    const csv = await api.get('/api/articles?fields=title,views');
    expect(Object.keys(csv.body.data[0])).toEqual(['id', 'documentId', 'title', 'views']);
  });

  test('a relation in fields is a 400: relations are populated', async () => {
    const { status, body } = await api.get('/api/articles?fields[0]=category');
    expect(status).toBe(400);
    expect(body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid key category', details: { key: 'category', path: null, source: 'query', param: 'fields' } });
  });
});

describe('populate', () => {
  test('populate=*: every first-level relation, media, component and zone, localizations included, nothing nested', async () => {
    const { status, body } = await api.get(`/api/articles/${ids.hello}?populate=*`);
    expect(status).toBe(200);
    const article = body.data;
    expect(Object.keys(article)).toEqual([...ARTICLE_KEYS, 'category', 'tags', 'author', 'cover', 'gallery', 'seo', 'localizations', 'sections']);
    expect(article.category).toEqual({
      id: expect.any(Number),
      documentId: ids.tech,
      name: 'Tech',
      description: 'All about tech',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      publishedAt: expect.any(String),
    });
    expect(article.tags.map((tag: { name: string }) => tag.name)).toEqual(['node', 'sqlite']);
    expect(article.author).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(article.cover).toMatchObject({ id: 901, documentId: 'filepixel0000000000000001', url: '/uploads/pixel_abc.png', mime: 'image/png' });
    expect(article.gallery).toEqual([article.cover]);
    expect(article.seo).toEqual({ id: expect.any(Number), metaTitle: 'Hello SEO', metaDescription: 'SEO description' });
    expect(article.localizations).toEqual([expect.objectContaining({ title: 'Bonjour le monde', locale: 'fr', documentId: ids.hello })]);
    expect(article.sections).toEqual([
      { id: expect.any(Number), text: 'To be or not to be', source: 'Hamlet', __component: 'shared.quote' },
      { id: expect.any(Number), body: 'Some **rich** text', __component: 'shared.rich-text' },
    ]);
  });

  test('populate=a,b, populate[0]=a, populate[a]=true and populate[a]=false', async () => {
    const csv = await api.get(`/api/articles/${ids.hello}?fields[0]=title&populate=category,author`);
    expect(Object.keys(csv.body.data)).toEqual(['id', 'documentId', 'title', 'category', 'author']);
    const indexed = await api.get(`/api/articles/${ids.hello}?fields[0]=title&populate[0]=tags`);
    expect(Object.keys(indexed.body.data)).toEqual(['id', 'documentId', 'title', 'tags']);
    const flags = await api.get(`/api/articles/${ids.hello}?fields[0]=title&populate[category]=true&populate[tags]=false`);
    expect(Object.keys(flags.body.data)).toEqual(['id', 'documentId', 'title', 'category']);
  });

  test('dot paths and nested populate: a component in a component, a relation of a relation', async () => {
    const dotted = await api.get(`/api/articles/${ids.second}?fields[0]=title&populate[0]=category.parent`);
    expect(dotted.body.data.category).toMatchObject({ name: 'JavaScript', parent: { name: 'Tech', documentId: ids.tech } });
    const nested = await api.get(`/api/articles/${ids.hello}?${queryString({ fields: ['title'], populate: { seo: { populate: ['keywords'] } } }, { encodeValuesOnly: true })}`);
    expect(nested.body.data.seo).toEqual({
      id: expect.any(Number),
      metaTitle: 'Hello SEO',
      metaDescription: 'SEO description',
      keywords: [
        { id: expect.any(Number), value: 'hello' },
        { id: expect.any(Number), value: 'world' },
      ],
    });
  });

  test('populate[a][fields], [filters] and [sort]', async () => {
    const query = queryString(
      { fields: ['title'], populate: { category: { fields: ['name'] }, tags: { fields: ['name'], sort: ['name:desc'], filters: { weight: { $lt: 1 } } } } },
      { encodeValuesOnly: true },
    );
    const { body } = await api.get(`/api/articles/${ids.hello}?${query}`);
    expect(body.data.category).toEqual({ id: expect.any(Number), documentId: ids.tech, name: 'Tech' });
    expect(body.data.tags).toEqual([{ id: expect.any(Number), documentId: ids.sqlite, name: 'sqlite' }]);
    const sorted = await api.get(`/api/articles/${ids.hello}?fields[0]=title&populate[tags][fields][0]=name&populate[tags][sort]=name:desc`);
    expect(sorted.body.data.tags.map((tag: { name: string }) => tag.name)).toEqual(['sqlite', 'node']);
  });

  test('dynamic zones: populate[zone][on][uid] picks components and their fields', async () => {
    const { body } = await api.get(`/api/articles/${ids.hello}?populate[sections][on][shared.quote][fields][0]=text`);
    expect(body.data.sections).toEqual([{ id: expect.any(Number), text: 'To be or not to be', __component: 'shared.quote' }]);
  });

  test('populate[tags][count]=true answers a count', async () => {
    const { body } = await api.get('/api/articles?fields[0]=title&populate[tags][count]=true');
    expect(body.data.map((article: { tags: unknown }) => article.tags)).toEqual([{ count: 2 }, { count: 1 }, { count: 0 }]);
  });

  test('unknown populate keys are named with their path', async () => {
    const { status, body } = await api.get('/api/articles?populate=nope');
    expect(status).toBe(400);
    expect(body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid key nope', details: { key: 'nope', path: 'nope', source: 'query', param: 'populate' } });
  });
});

describe('filters', () => {
  const filtered = async (filters: Record<string, unknown>) => {
    const { status, body } = await api.get(`/api/articles?${queryString({ filters, sort: 'title', fields: ['title'] }, { encodeValuesOnly: true })}`);
    expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
    return titles(body);
  };

  test.each([
    [{ title: { $eq: 'Second post' } }, ['Second post']],
    [{ title: { $eqi: 'second POST' } }, ['Second post']],
    [{ title: { $ne: 'Second post' } }, ['Hello World', 'Third post']],
    [{ title: { $nei: 'SECOND post' } }, ['Hello World', 'Third post']],
    [{ views: { $lt: 10 } }, ['Hello World']],
    [{ views: { $lte: 10 } }, ['Hello World', 'Second post']],
    [{ views: { $gt: 10 } }, ['Third post']],
    [{ views: { $gte: 10 } }, ['Second post', 'Third post']],
    [{ kind: { $in: ['news', 'opinion'] } }, ['Hello World', 'Third post']],
    [{ kind: { $notIn: ['news', 'opinion'] } }, ['Second post']],
    [{ title: { $contains: 'post' } }, ['Second post', 'Third post']],
    [{ title: { $notContains: 'post' } }, ['Hello World']],
    [{ title: { $containsi: 'HELLO' } }, ['Hello World']],
    [{ title: { $notContainsi: 'HELLO' } }, ['Second post', 'Third post']],
    [{ slug: { $null: true } }, ['Third post']],
    [{ slug: { $notNull: true } }, ['Hello World', 'Second post']],
    [{ views: { $between: [5, 25] } }, ['Second post', 'Third post']],
    [{ title: { $startsWith: 'Sec' } }, ['Second post']],
    [{ title: { $startsWithi: 'sec' } }, ['Second post']],
    [{ title: { $endsWith: 'World' } }, ['Hello World']],
    [{ title: { $endsWithi: 'world' } }, ['Hello World']],
    [{ $or: [{ title: { $eq: 'Second post' } }, { views: { $gte: 15 } }] }, ['Second post', 'Third post']],
    [{ $and: [{ views: { $gte: 3 } }, { views: { $lte: 10 } }] }, ['Hello World', 'Second post']],
    [{ $not: { views: { $gte: 10 } } }, ['Hello World']],
    [{ category: { name: { $eq: 'Tech' } } }, ['Hello World']],
    [{ category: { parent: { name: { $eq: 'Tech' } } } }, ['Second post']],
    [{ tags: { name: { $eq: 'node' } } }, ['Hello World', 'Second post']],
    [{ featured: { $eq: true } }, ['Hello World']],
    [{ publishDate: { $eq: '2024-01-15' } }, ['Hello World']],
  ])('%j', async (filters, expected) => {
    expect(await filtered(filters)).toEqual(expected);
  });

  test('arrays by index, as the SDK sends them', async () => {
    const { body } = await api.get('/api/articles?filters[kind][$in][0]=news&filters[kind][$in][1]=opinion&fields[0]=title&sort=title');
    expect(titles(body)).toEqual(['Hello World', 'Third post']);
  });

  test('_q searches string and text attributes, combined with filters by AND', async () => {
    const search = await api.get('/api/articles?_q=first&fields[0]=title');
    expect(titles(search.body)).toEqual(['Hello World']);
    const combined = await api.get('/api/articles?_q=post&filters[views][$gte]=15&fields[0]=title');
    expect(titles(combined.body)).toEqual(['Third post']);
  });
});

describe('sort and pagination', () => {
  test('sort=title:desc, sort[0]=…&sort[1]=…, comma lists', async () => {
    expect(titles((await api.get('/api/articles?sort=title:desc&fields[0]=title')).body)).toEqual(['Third post', 'Second post', 'Hello World']);
    const multi = await api.get('/api/articles?sort[0]=featured:desc&sort[1]=views:desc&fields[0]=title');
    expect(titles(multi.body)).toEqual(['Hello World', 'Third post', 'Second post']);
    expect(titles((await api.get('/api/articles?sort=featured:desc,views&fields[0]=title')).body)).toEqual(['Hello World', 'Second post', 'Third post']);
  });

  test("a related document's field: sort=category.name (REST and GraphQL alike)", async () => {
    expect(titles((await api.get('/api/articles?sort=category.name:asc&fields[0]=title')).body)).toEqual(['Third post', 'Second post', 'Hello World']);
    const desc = await api.get('/api/articles?sort[0]=category.name:desc&pagination[pageSize]=2&fields[0]=title');
    expect(titles(desc.body)).toEqual(['Hello World', 'Second post']);
    expect(desc.body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });
    const graphql = await server.gql<{ articles: Array<{ title: string }> }>('{ articles(sort: ["category.name:desc", "title"]) { title } }');
    expect(graphql.body.data!.articles.map((article) => article.title)).toEqual(['Hello World', 'Second post', 'Third post']);
    expect((await api.get('/api/articles?sort=tags.name')).body.error).toMatchObject({ message: 'Invalid key tags.name', details: { param: 'sort' } });
    // a populated relation's sort is checked by the same resolver parser, once
    const nested = await api.get('/api/articles?populate[tags][sort]=nope:asc');
    expect(nested.status).toBe(400);
    expect(nested.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key nope' });
  });

  test('page mode, offset mode, withCount=false', async () => {
    const page = await api.get('/api/articles?pagination[page]=2&pagination[pageSize]=2&fields[0]=title');
    expect(titles(page.body)).toEqual(['Third post']);
    expect(page.body.meta.pagination).toEqual({ page: 2, pageSize: 2, pageCount: 2, total: 3 });
    const offset = await api.get('/api/articles?pagination[start]=1&pagination[limit]=1&fields[0]=title');
    expect(titles(offset.body)).toEqual(['Second post']);
    expect(offset.body.meta.pagination).toEqual({ start: 1, limit: 1, total: 3 });
    const uncounted = await api.get('/api/articles?pagination[pageSize]=1&pagination[withCount]=false&fields[0]=title');
    expect(uncounted.body.meta.pagination).toEqual({ page: 1, pageSize: 1 });
  });

  test('clamped as Strapi 5.54 clamps: size over the max, size 0, page -1, limit -1', async () => {
    expect((await api.get('/api/articles?pagination[pageSize]=500&fields[0]=title')).body.meta.pagination.pageSize).toBe(100);
    expect((await api.get('/api/articles?pagination[pageSize]=0&fields[0]=title')).body.meta.pagination).toMatchObject({ page: 1, pageSize: 1 });
    expect((await api.get('/api/articles?pagination[page]=-1&fields[0]=title')).body.meta.pagination).toMatchObject({ page: 1 });
    const all = await api.get('/api/articles?pagination[limit]=-1&fields[0]=title');
    expect(all.body.data).toHaveLength(1);
    expect(all.body.meta.pagination).toEqual({ start: 0, limit: 1, total: 3 });
  });

  test('a non-numeric page or size is a 400; page and offset together a PaginationError', async () => {
    expect((await api.get('/api/articles?pagination[pageSize]=ten')).status).toBe(400);
    const mixed = await api.get('/api/articles?pagination[page]=1&pagination[start]=0');
    expect(mixed.body).toEqual({ data: null, error: { status: 400, name: 'PaginationError', message: 'Cannot use both page & offset pagination in the same query', details: {} } });
  });
});

describe('draft & publish and locales', () => {
  test('status=draft lists drafts of every document; the public may read them with find', async () => {
    const { body } = await api.get('/api/articles?status=draft&fields[0]=title&fields[1]=publishedAt&sort=title', { anonymous: true });
    expect(titles(body)).toEqual(['Draft only', 'Hello World', 'Second post', 'Third post']);
    expect(body.data.every((article: { publishedAt: unknown }) => article.publishedAt === null)).toBe(true);
    const one = await api.get(`/api/articles/${ids.draft}?status=draft`, { anonymous: true });
    expect(one.body.data.title).toBe('Draft only');
    expect((await api.get(`/api/articles/${ids.draft}`)).status).toBe(404);
  });

  test('locale=fr reads that locale; locale=* all of them', async () => {
    const fr = await api.get('/api/articles?locale=fr&fields[0]=title&fields[1]=locale');
    expect(fr.body.data).toEqual([{ id: expect.any(Number), documentId: ids.hello, title: 'Bonjour le monde', locale: 'fr' }]);
    const all = await api.get('/api/articles?locale=*&fields[0]=locale&sort=title');
    expect(all.body.meta.pagination.total).toBe(4);
    const one = await api.get(`/api/articles/${ids.hello}?locale=fr&populate[localizations][fields][0]=title`);
    expect(one.body.data).toMatchObject({ title: 'Bonjour le monde', localizations: [{ id: expect.any(Number), documentId: ids.hello, title: 'Hello World' }] });
  });
});

describe('Strapi-Response-Format: v4', () => {
  test('documents as { id, documentId, attributes }, relations and media as { data }, components flat', async () => {
    const { body } = await api.get(`/api/articles/${ids.hello}?fields[0]=title&populate[category][fields][0]=name&populate[tags][fields][0]=name&populate[cover]=true&populate[seo]=true`, {
      headers: { 'Strapi-Response-Format': 'v4' },
    });
    expect(body.data).toEqual({
      id: expect.any(Number),
      documentId: ids.hello,
      attributes: {
        title: 'Hello World',
        category: { data: { id: expect.any(Number), documentId: ids.tech, attributes: { name: 'Tech' } } },
        tags: {
          data: [
            { id: expect.any(Number), documentId: ids.node, attributes: { name: 'node' } },
            { id: expect.any(Number), documentId: ids.sqlite, attributes: { name: 'sqlite' } },
          ],
        },
        cover: { data: { id: 901, documentId: expect.any(String), attributes: expect.objectContaining({ url: '/uploads/pixel_abc.png' }) } },
        seo: { id: expect.any(Number), metaTitle: 'Hello SEO', metaDescription: 'SEO description' },
      },
    });
    expect(body.data.attributes).not.toHaveProperty('documentId');
    const list = await api.get('/api/articles?fields[0]=title&pagination[pageSize]=1', { headers: { 'strapi-response-format': 'v4' } });
    expect(list.body).toEqual({ data: [{ id: expect.any(Number), documentId: ids.hello, attributes: { title: 'Hello World' } }], meta: list.body.meta });
  });
});

describe('parity with GraphQL', () => {
  test('the same query through REST and GraphQL finds the same documents', async () => {
    const rest = await api.get(
      `/api/articles?${queryString(
        {
          filters: { $or: [{ views: { $gte: 10 } }, { category: { name: { $eq: 'Tech' } } }] },
          sort: ['views:desc'],
          fields: ['title', 'views', 'kind'],
          populate: { category: { fields: ['name'] }, tags: { fields: ['name'], sort: ['name:asc'] }, seo: { fields: ['metaTitle'] } },
          pagination: { page: 1, pageSize: 2 },
        },
        { encodeValuesOnly: true },
      )}`,
    );
    const graphql = await server.gql<{ articles_connection: { nodes: Array<Record<string, unknown>>; pageInfo: { total: number } } }>(
      `{ articles_connection(filters: { or: [{ views: { gte: 10 } }, { category: { name: { eq: "Tech" } } }] }, sort: ["views:desc"], pagination: { page: 1, pageSize: 2 }) {
          nodes { documentId title views kind category { documentId name } tags(sort: ["name:asc"]) { documentId name } seo { metaTitle } }
          pageInfo { total }
        } }`,
    );
    const { nodes, pageInfo } = graphql.body.data!.articles_connection;
    const withoutIds = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(withoutIds) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'id').map(([key, item]) => [key, withoutIds(item)])) : value;
    expect(withoutIds(rest.body.data)).toEqual(nodes);
    expect(rest.body.meta.pagination.total).toBe(pageInfo.total);
    expect(nodes.length).toBe(2);
  });
});
