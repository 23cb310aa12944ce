import { defaultPlugins, startTestServer, type TestServer } from '../support/test-server';
import { call } from '../auth/http';

/**
 * A few KB of query must not buy megabytes of answer. The cost counts lists as they multiply (an
 * anonymous 3 KB query of 25 aliases over nested 100-item pages passed the old cost limit and
 * answered 37.6 MB): `/graphql` documents before they run, REST answers as they are built; and an
 * answer over `maxResponseBytes` is refused.
 */

const amplification = () => {
  const branch = (index: number) => `a${index}: articles(pagination: { limit: 100 }) { tags { articles(pagination: { limit: 100 }) { category { articles { title } } } } }`;
  return `{ ${Array.from({ length: 25 }, (_, index) => branch(index)).join(' ')} }`;
};

describe('with the default limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    const tag = (await call<{ data: { documentId: string } }>(server.url, 'POST', '/api/tags', { body: { data: { name: 't' } }, headers: server.asAdmin })).body.data.documentId;
    for (let index = 0; index < 5; index += 1) {
      await call(server.url, 'POST', '/api/articles?status=published', { body: { data: { title: `A${index}`, tags: [tag] } }, headers: server.asAdmin });
    }
  });
  afterAll(() => server.stop());

  test('the 25-alias amplification query is refused before it runs, naming its cost', async () => {
    const query = amplification();
    expect(query.length).toBeLessThan(4000);
    const answer = await server.gql(query);
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors?.[0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', maxCost: 150_000 });
    expect(answer.body.errors?.[0].message).toMatch(/^Query cost \d+ exceeds the maximum cost of 150000/);
  });

  test('REST populate is counted as its answer is built: the nested populate answers here, where the data is small', async () => {
    const answer = await call<{ data: Array<{ tags: Array<{ articles: unknown[] }> }> }>(server.url, 'GET', '/api/articles?pagination[pageSize]=100&populate[tags][populate][articles][populate]=*');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(5);
    expect(answer.body.data[0].tags[0].articles).toHaveLength(5);
  });

  test('pages given by variables are counted per request: the same document passes with a small page and is refused with a large one', async () => {
    const query = 'query($outer: PaginationArg, $inner: PaginationArg) { articles(pagination: $outer) { tags(pagination: $inner) { articles(pagination: $outer) { title } } } }';
    expect((await server.gql(query, { outer: { limit: 5 }, inner: { limit: 5 } })).status).toBe(200);
    const large = await server.gql(query, { outer: { limit: 100 }, inner: { limit: 100 } });
    expect(large.status).toBe(400);
    expect(large.body.errors?.[0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
    expect((await server.gql(query, { outer: { limit: 5 }, inner: { limit: 5 } })).status).toBe(200);
  });

  test('ordinary requests pass: populate=* on a default page, a connection of 100', async () => {
    expect((await call(server.url, 'GET', '/api/articles?populate=*')).status).toBe(200);
    const result = await server.gql('{ articles_connection(pagination: { pageSize: 100 }) { nodes { title tags { name } } pageInfo { total } } }');
    expect(result.body.errors).toBeUndefined();
  });
});

describe('REST answers past maxCost', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { plugins: defaultPlugins({ graphql: { config: { maxCost: 400 } } }) } });
    const tag = (await call<{ data: { documentId: string } }>(server.url, 'POST', '/api/tags', { body: { data: { name: 't' } }, headers: server.asAdmin })).body.data.documentId;
    for (let index = 0; index < 8; index += 1) {
      await call(server.url, 'POST', '/api/articles?status=published', { body: { data: { title: `A${index}`, tags: [tag] } }, headers: server.asAdmin });
    }
  });
  afterAll(() => server.stop());

  test('are stopped once the answer outgrows the limit, in the envelope; smaller answers of the same request pass', async () => {
    const populate = 'populate[tags][populate][articles][populate]=*';
    const small = await call(server.url, 'GET', `/api/articles?pagination[pageSize]=1&${populate}`);
    expect(small.status).toBe(200);
    const large = await call(server.url, 'GET', `/api/articles?pagination[pageSize]=8&${populate}`);
    expect(large.status).toBe(400);
    expect(large.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message: expect.stringMatching(/^The answer holds more than the maximum cost of 400 values/) } });
    // the same operation on /graphql is estimated before it runs
    const graphql = await server.gql('{ articles(pagination: { limit: 8 }) { tags { articles { title } } } }');
    expect(graphql.body.errors?.[0].message).toMatch(/^Query cost \d+ exceeds the maximum cost of 400/);
  });

  test('a write whose answer would be too costly is refused before it runs: nothing is stored', async () => {
    const tags = await call<{ data: Array<{ documentId: string; name: string }> }>(server.url, 'GET', '/api/tags');
    const [tag] = tags.body.data;
    const written = await call(server.url, 'PUT', `/api/tags/${tag.documentId}?populate[articles][populate][tags][populate]=articles`, { body: { data: { name: 'renamed' } }, headers: server.asAdmin });
    expect(written.status).toBe(400);
    expect(written.body).toMatchObject({ data: null, error: { name: 'ValidationError', message: expect.stringMatching(/^Query cost \d+ exceeds the maximum cost of 400/) } });
    const read = await call<{ data: { name: string } }>(server.url, 'GET', `/api/tags/${tag.documentId}`);
    expect(read.body.data.name).toBe(tag.name);
  });
});

describe('REST reading past maxCost', () => {
  let server: TestServer;
  let tag: string;
  /** the most rows one read of the articles' collection answered */
  let widest = 0;
  beforeAll(async () => {
    server = await startTestServer({ config: { plugins: defaultPlugins({ graphql: { config: { maxCost: 400 } } }) } });
    const { documents, models, store } = server.folio.services;
    tag = (await documents.create(models.contentTypes.get('api::tag.tag')!, { name: 'crowded' }, { status: 'published' })).documentId as string;
    const article = models.contentTypes.get('api::article.article')!;
    for (let index = 0; index < 600; index += 1) await documents.create(article, { title: `C${index}`, tags: [tag] }, { status: 'published' });
    const collection = store.collection.bind(store);
    store.collection = (name) => {
      const target = collection(name);
      if (name !== 'articles') return target;
      return Object.assign(Object.create(target) as typeof target, {
        find: async (...args: Parameters<typeof target.find>) => {
          const rows = await target.find(...args);
          widest = Math.max(widest, rows.length);
          return rows;
        },
      });
    };
  }, 60_000);
  afterAll(() => server.stop());

  test('stops reading a populated relation once the budget is spent: at most one row past it', async () => {
    const answer = await call(server.url, 'GET', `/api/tags/${tag}?populate=articles`);
    expect(answer.status).toBe(400);
    expect(widest).toBeGreaterThan(0);
    expect(widest).toBeLessThanOrEqual(401);
  });
});

describe('maxResponseBytes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { plugins: { graphql: { config: { maxResponseBytes: 2000 } } } } });
    for (let index = 0; index < 20; index += 1) {
      await call(server.url, 'POST', '/api/tags', { body: { data: { name: `tag number ${index} with a long enough name` } }, headers: server.asAdmin });
    }
  });
  afterAll(() => server.stop());

  test('GraphQL: a larger answer is refused with RESPONSE_TOO_LARGE', async () => {
    const answer = await server.gql('{ tags(pagination: { limit: 50 }) { documentId name createdAt } }', undefined, server.asAdmin);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ errors: [{ message: expect.stringMatching(/more than the 2000 allowed/), extensions: { code: 'RESPONSE_TOO_LARGE', bytes: expect.any(Number), maxResponseBytes: 2000 } }] });
    expect((await server.gql('{ tags(pagination: { limit: 2 }) { name } }', undefined, server.asAdmin)).status).toBe(200);
  });

  test('REST: the same, in the envelope', async () => {
    const answer = await call(server.url, 'GET', '/api/tags?pagination[pageSize]=50', { headers: server.asAdmin });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ data: null, error: { status: 400, name: 'ResponseTooLargeError', details: { maxResponseBytes: 2000 } } });
    expect((await call(server.url, 'GET', '/api/tags?pagination[pageSize]=2', { headers: server.asAdmin })).status).toBe(200);
  });
});
