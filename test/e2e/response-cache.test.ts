import { defaultPlugins, FULL_ACCESS_TOKEN, mongodbDatabase, startTestServer, type TestServer } from '../support/test-server';
import { bearer, call } from '../auth/http';
import { CUSTOM_TOKEN, JWT_SECRET, PUBLIC_READS, registerUser } from '../auth/auth-server';

/**
 * `graphql.config.responseCache`: answers kept per principal on both surfaces, dropped by writes to the
 * types they hold; REST reads carry an ETag and answer 304 to it. Whether an answer came from the cache is
 * read from /metrics: a cached answer makes no store call.
 */

const admin = bearer(FULL_ACCESS_TOKEN);

const startServer = (responseCache: unknown, database?: ReturnType<typeof mongodbDatabase>) =>
  startTestServer({
    config: {
      ...(database ? { database } : {}),
      server: { metrics: true },
      plugins: defaultPlugins({
        graphql: { config: { responseCache } },
        'users-permissions': {
          config: {
            jwtSecret: JWT_SECRET,
            rateLimit: { max: 1000, windowMs: 60_000 },
            roles: { public: { permissions: PUBLIC_READS }, authenticated: { permissions: ['plugin::users-permissions.user.me'] } },
          },
        },
      }),
      admin: {
        apiTokens: [
          { name: 'test-admin', type: 'full-access', accessKey: FULL_ACCESS_TOKEN },
          { name: 'tagger', type: 'custom', accessKey: CUSTOM_TOKEN, permissions: ['api::tag.tag.find'] },
        ],
      },
    },
  });

/** How many store calls reading articles the server has made so far. */
const articleReads = async (server: TestServer): Promise<number> => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return ['find', 'findOne', 'countDocuments', 'findPage']
    .map((method) => new RegExp(`^folio_store_call_duration_seconds_count\\{collection="articles",method="${method}"\\} (\\d+)$`, 'm').exec(text))
    .reduce((sum, match) => sum + Number(match?.[1] ?? 0), 0);
};

const TITLES = '{ articles(sort: "title") { title category { name } } }';

describe('responseCache: true', () => {
  let server: TestServer;
  let categoryId: string;
  beforeAll(async () => {
    server = await startServer(true);
    const category = await call<{ data: { documentId: string } }>(server.url, 'POST', '/api/categories', { headers: admin, body: { data: { name: 'News' } } });
    categoryId = category.body.data.documentId;
    await call(server.url, 'POST', '/api/articles', { headers: admin, body: { data: { title: 'First', category: categoryId } } });
  });
  afterAll(() => server.stop());

  test('a repeated read is answered without the store, on /graphql and REST alike', async () => {
    const first = await server.gql(TITLES);
    expect(first.body.data).toEqual({ articles: [{ title: 'First', category: { name: 'News' } }] });
    const reads = await articleReads(server);
    expect((await server.gql(TITLES)).body).toEqual(first.body);
    expect(await articleReads(server)).toBe(reads);

    const rest = await call(server.url, 'GET', '/api/articles?fields[0]=title');
    const afterRest = await articleReads(server);
    expect(afterRest).toBeGreaterThan(reads);
    expect(await call(server.url, 'GET', '/api/articles?fields[0]=title')).toMatchObject({ status: 200, body: rest.body });
    expect(await articleReads(server)).toBe(afterRest);
  });

  test('never shared between principals with different permissions: a cached public answer is not handed to a token without article.find', async () => {
    expect((await server.gql(TITLES)).body.data).toBeDefined();
    const refused = await server.gql(TITLES, undefined, bearer(CUSTOM_TOKEN));
    expect(refused.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await call(server.url, 'GET', '/api/articles', { headers: bearer(CUSTOM_TOKEN) })).status).toBe(403);
    // a token that opens nothing is refused before any cached answer is looked at
    expect((await server.gql(TITLES, undefined, bearer('not-a-token-0123456789'))).status).toBe(401);
  });

  test("two users of one role get their own answers (me)", async () => {
    const [ann, bob] = [await registerUser(server, 'ann'), await registerUser(server, 'bob')];
    const me = '{ me { username } }';
    expect((await server.gql(me, undefined, ann.headers)).body.data).toEqual({ me: { username: 'ann' } });
    expect((await server.gql(me, undefined, bob.headers)).body.data).toEqual({ me: { username: 'bob' } });
    expect((await server.gql(me, undefined, ann.headers)).body.data).toEqual({ me: { username: 'ann' } });
  });

  test('a write drops the answers holding its type, whichever surface wrote or read', async () => {
    await server.gql(TITLES);
    await call(server.url, 'GET', '/api/articles?fields[0]=title');
    // a REST write, read over GraphQL and REST
    await call(server.url, 'POST', '/api/articles', { headers: admin, body: { data: { title: 'Second' } } });
    expect((await server.gql(TITLES)).body.data).toEqual({ articles: [{ title: 'First', category: { name: 'News' } }, { title: 'Second', category: null }] });
    const rest = await call<{ data: Array<{ title: string }> }>(server.url, 'GET', '/api/articles?fields[0]=title&sort=title');
    expect(rest.body.data.map(({ title }) => title)).toEqual(['First', 'Second']);
    // a GraphQL write to a related type: the article answers holding a Category are dropped
    await server.gql(`mutation { updateCategory(documentId: "${categoryId}", data: { name: "World" }) { name } }`, undefined, admin);
    expect((await server.gql(TITLES)).body.data).toEqual({ articles: [{ title: 'First', category: { name: 'World' } }, { title: 'Second', category: null }] });
  });

  test('REST reads carry an ETag; If-None-Match with it is a 304 without a body, until a write changes the answer', async () => {
    const first = await fetch(`${server.url}/api/articles`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await fetch(`${server.url}/api/articles`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    await call(server.url, 'POST', '/api/articles', { headers: admin, body: { data: { title: 'Third' } } });
    const changed = await fetch(`${server.url}/api/articles`, { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

test('off by default: every read reaches the store', async () => {
  const server = await startServer(false);
  try {
    await server.gql(TITLES);
    const reads = await articleReads(server);
    await server.gql(TITLES);
    expect(await articleReads(server)).toBeGreaterThan(reads);
  } finally {
    await server.stop();
  }
});

test("two instances on one database: a write on one drops the other's cached answers within the content events' poll", async () => {
  const database = mongodbDatabase();
  const [writer, reader] = [await startServer(true, database), await startServer(true, database)];
  try {
    await call(writer.url, 'POST', '/api/articles', { headers: admin, body: { data: { title: 'First' } } });
    expect((await reader.gql('{ articles { title } }')).body.data).toEqual({ articles: [{ title: 'First' }] });
    await call(writer.url, 'POST', '/api/articles', { headers: admin, body: { data: { title: 'Second' } } });
    // the document the reader cached before the write, answered anew once the event reaches it
    const started = Date.now();
    let titles: unknown;
    do {
      await new Promise((resolve) => setTimeout(resolve, 50));
      titles = (await reader.gql('{ articles { title } }')).body.data;
    } while (!JSON.stringify(titles).includes('Second') && Date.now() - started < 5000);
    expect(titles).toEqual({ articles: [{ title: 'First' }, { title: 'Second' }] });
    expect(Date.now() - started).toBeLessThan(2000);
  } finally {
    await writer.stop();
    await reader.stop();
  }
});
