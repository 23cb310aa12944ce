import { defaultPlugins, startTestServer, type TestServer } from '../support/test-server';
import { call } from '../auth/http';

/**
 * A sort names each key once, and at most `graphql.config.maxSortKeys` of them (10): the store reads
 * every key's value of every matched row, so 1,000 × "title:desc" over long titles took seconds and a
 * GB before failing. The refusal is a 400 naming the limit or the key, before anything is read, on both
 * surfaces and for every `sort` argument (root lists, connections, relation lists, REST's populate).
 */

const TEN_KEYS = ['title', 'slug:desc', 'summary', 'body', 'featured', 'views:desc', 'rating', 'publishDate', 'kind', 'createdAt'];
const LIMIT_MESSAGE = /^sort names 11 keys: at most 10 may be given \(graphql\.config\.maxSortKeys\)$/;

type Titles = { data: Array<{ title: string }> };

describe('with the default maxSortKeys', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    const tag = (await call<{ data: { documentId: string } }>(server.url, 'POST', '/api/tags', { body: { data: { name: 't' } }, headers: server.asAdmin })).body.data.documentId;
    for (const [title, views] of [['b', 1], ['a', 2], ['c', 2]] as const) {
      await call(server.url, 'POST', '/api/articles?status=published', { body: { data: { title, views, tags: [tag] } }, headers: server.asAdmin });
    }
  });
  afterAll(() => server.stop());

  test('GraphQL: 1,000 × "title:desc" is refused at once with a 400 naming the limit', async () => {
    const started = Date.now();
    const answer = await server.gql('query($s: [String]) { articles(sort: $s) { title } }', { s: Array(1000).fill('title:desc') });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors![0]).toMatchObject({
      message: 'sort names 1000 keys: at most 10 may be given (graphql.config.maxSortKeys)',
      extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', details: { param: 'sort', keys: 1000, maxSortKeys: 10 } } },
    });
  });

  test('REST: 1,000 × "title:desc" is refused at once in the envelope, naming the limit', async () => {
    const started = Date.now();
    const answer = await call(server.url, 'GET', `/api/articles?sort=${Array(1000).fill('title:desc').join(',')}`);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'sort names 1000 keys: at most 10 may be given (graphql.config.maxSortKeys)', details: { param: 'sort', keys: 1000, maxSortKeys: 10 } },
    });
  });

  test('a key given twice is refused, whatever its directions or the form that gives it', async () => {
    const twice = { key: 'title', path: null, source: 'query', param: 'sort' };
    for (const sort of [['title:desc', 'title:desc'], ['title', 'views', 'title:desc'], ['title,title:asc'], ['category.name', 'category.name:desc']]) {
      const answer = await server.gql('query($s: [String]) { articles(sort: $s) { title } }', { s: sort });
      expect(answer.status).toBe(400);
      const key = sort[0].split(/[,:]/)[0];
      expect(answer.body.errors![0]).toMatchObject({
        message: `sort names ${key} twice: each key may be given once`,
        extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', details: { ...twice, key } } },
      });
    }
    const literal = await server.gql('{ articles(sort: ["views", "views:desc"]) { title } }');
    expect(literal.status).toBe(400);
    expect(literal.body.errors![0].message).toBe('sort names views twice: each key may be given once');
    for (const query of ['sort=title,title:desc', 'sort[0]=views&sort[1]=views:desc', 'sort[0][title]=asc&sort[1][title]=desc']) {
      const answer = await call(server.url, 'GET', `/api/articles?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message: expect.stringMatching(/^sort names (title|views) twice: each key may be given once$/) } });
    }
  });

  test('nested sorts are held too, before their parents are read: relation lists, connections, fragments, REST populate', async () => {
    const keys = [...TEN_KEYS, 'updatedAt'];
    const { documents } = server.folio.services;
    const reads = [jest.spyOn(documents, 'findMany'), jest.spyOn(documents, 'findPage')];
    try {
      const query = 'query($s: [String]) { tags { articles(sort: $s) { title } articles_connection(sort: ["title"]) { nodes { title } } } }';
      const nested = await server.gql(query, { s: keys });
      expect(nested.status).toBe(400);
      expect(nested.body.errors![0].message).toMatch(LIMIT_MESSAGE);
      expect(reads.map((read) => read.mock.calls.length)).toEqual([0, 0]);
      // the same request within the limit reads: the spies see the store work a refusal spares
      expect((await server.gql(query, { s: TEN_KEYS })).status).toBe(200);
      expect(reads[0].mock.calls.length).toBeGreaterThan(0);
    } finally {
      for (const read of reads) read.mockRestore();
    }
    const fragment = await server.gql('query { tags { ...Sorted } } fragment Sorted on Tag { articles(sort: ["title", "title"]) { title } }');
    expect(fragment.status).toBe(400);
    expect(fragment.body.errors![0].message).toBe('sort names title twice: each key may be given once');
    const byDefault = await server.gql(`query($s: [String] = ${JSON.stringify(Array(1000).fill('title:desc'))}) { articles(sort: $s) { title } }`);
    expect(byDefault.status).toBe(400);
    expect(byDefault.body.errors![0].message).toBe('sort names 1000 keys: at most 10 may be given (graphql.config.maxSortKeys)');
    const connection = await server.gql('query($s: [String]) { articles_connection(sort: $s) { nodes { title } } }', { s: keys });
    expect(connection.status).toBe(400);
    expect(connection.body.errors![0].message).toMatch(LIMIT_MESSAGE);
    const populate = await call(server.url, 'GET', `/api/tags?populate[articles][sort]=${keys.join(',')}`);
    expect(populate.status).toBe(400);
    expect(populate.body).toMatchObject({ error: { status: 400, name: 'ValidationError', message: expect.stringMatching(LIMIT_MESSAGE) } });
    const populateTwice = await call(server.url, 'GET', '/api/tags?populate[articles][sort][0]=title&populate[articles][sort][1]=title:desc');
    expect(populateTwice.body).toMatchObject({ error: { status: 400, message: 'sort names title twice: each key may be given once' } });
  });

  test('the limit\'s number of distinct keys sorts, on both surfaces', async () => {
    const graphql = await server.gql<{ articles: Array<{ title: string }> }>('query($s: [String]) { articles(sort: $s) { title } }', { s: TEN_KEYS });
    expect(graphql.status).toBe(200);
    expect(graphql.body.data!.articles.map((article) => article.title)).toEqual(['a', 'b', 'c']);
    const rest = await call<Titles>(server.url, 'GET', `/api/articles?sort=${TEN_KEYS.join(',')}`);
    expect(rest.status).toBe(200);
    expect(rest.body.data.map((article) => article.title)).toEqual(['a', 'b', 'c']);
  });

  test('ordinary sorts are unchanged', async () => {
    const byViews = await server.gql<{ articles: Array<{ title: string }> }>('{ articles(sort: ["views:desc", "title:desc"]) { title } }');
    expect(byViews.body.data!.articles.map((article) => article.title)).toEqual(['c', 'a', 'b']);
    const comma = await call<Titles>(server.url, 'GET', '/api/articles?sort=views:desc,title');
    expect(comma.body.data.map((article) => article.title)).toEqual(['a', 'c', 'b']);
    const indexed = await call<Titles>(server.url, 'GET', '/api/articles?sort[0]=views&sort[1]=title:desc');
    expect(indexed.body.data.map((article) => article.title)).toEqual(['b', 'c', 'a']);
    const object = await call<Titles>(server.url, 'GET', '/api/articles?sort[title]=desc');
    expect(object.body.data.map((article) => article.title)).toEqual(['c', 'b', 'a']);
    const populated = await call<{ data: Array<{ articles: Array<{ title: string }> }> }>(server.url, 'GET', '/api/tags?populate[articles][sort]=title:desc');
    expect(populated.body.data[0].articles.map((article) => article.title)).toEqual(['c', 'b', 'a']);
    // invalid keys are still the resolvers' to name, as before
    expect((await call(server.url, 'GET', '/api/articles?sort=nope')).body).toMatchObject({ error: { status: 400, message: 'Invalid key nope' } });
  });
});

describe('maxSortKeys configured', () => {
  let tight: TestServer;
  let open: TestServer;
  beforeAll(async () => {
    [tight, open] = await Promise.all([
      startTestServer({ config: { plugins: defaultPlugins({ graphql: { config: { maxSortKeys: 2 } } }) } }),
      startTestServer({ config: { plugins: defaultPlugins({ graphql: { config: { maxSortKeys: false } } }) } }),
    ]);
  });
  afterAll(() => Promise.all([tight.stop(), open.stop()]));

  test('a lower bound refuses what the default lets through; false lets any number of distinct keys through, each once', async () => {
    const three = ['title', 'views', 'kind'];
    const refused = await tight.gql('query($s: [String]) { articles(sort: $s) { title } }', { s: three });
    expect(refused.status).toBe(400);
    expect(refused.body.errors![0].message).toBe('sort names 3 keys: at most 2 may be given (graphql.config.maxSortKeys)');
    expect((await tight.gql('query($s: [String]) { articles(sort: $s) { title } }', { s: three.slice(0, 2) })).status).toBe(200);
    const many = await open.gql('query($s: [String]) { articles(sort: $s) { title } }', { s: [...TEN_KEYS, 'updatedAt', 'publishedAt', 'documentId'] });
    expect(many.status).toBe(200);
    expect(many.body.errors).toBeUndefined();
    const twice = await open.gql('query($s: [String]) { articles(sort: $s) { title } }', { s: ['title', 'title'] });
    expect(twice.status).toBe(400);
    expect(twice.body.errors![0].message).toBe('sort names title twice: each key may be given once');
  });
});
