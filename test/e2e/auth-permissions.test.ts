import jwt from 'jsonwebtoken';
import type { TestServer } from '../support/test-server';
import { call, bearer } from '../auth/http';
import { CUSTOM_TOKEN, JWT_SECRET, READ_ONLY_TOKEN, registerUser, startAuthServer } from '../auth/auth-server';

/** Who may do what, enforced before execution: roles, API token types, and every way a credential fails. */

let server: TestServer;
beforeAll(async () => {
  server = await startAuthServer({
    roles: {
      public: { permissions: ['api::article.article.find', 'api::article.article.findOne'] },
      authenticated: { permissions: ['api::tag.tag.find', 'api::category.category.find'] },
      // A role of one's own starts empty: `me` is granted only by default to `authenticated`.
      editor: { permissions: ['api::article.article.find', 'api::article.article.create', 'api::category.category.find', 'plugin::users-permissions.user.me'] },
    },
  });
  const created = await server.gql<{ createCategory: { documentId: string } }>('mutation { createCategory(data: { name: "Tech" }) { documentId } }', {}, server.asAdmin);
  const article = await server.gql(`mutation { createArticle(data: { title: "Hello", category: "${created.body.data!.createCategory.documentId}" }) { documentId } }`, {}, server.asAdmin);
  expect(article.body.errors).toBeUndefined();
  await server.gql('mutation { createTag(data: { name: "news" }) { documentId } }', {}, server.asAdmin);
});
afterAll(() => server.stop());

/** Gives a user another declared role, as an administrator would. */
const promote = async (userId: number, type: string) => {
  const role = await server.folio.services.store.collection('up_roles').findOne({ type });
  await server.folio.services.store.collection('up_users').updateOne({ id: userId }, { $set: { role: role!.documentId } });
};

const codeOf = (answer: { body: { errors?: Array<{ extensions?: Record<string, unknown> }> } }) => answer.body.errors?.[0]?.extensions?.code;

describe('roles', () => {
  test('everything is private by default: no grant, FORBIDDEN in a 200 shaped as Strapi\'s', async () => {
    // list queries are non-null lists ([Tag]!): their null takes `data` with it, as in Strapi's exchange 116
    for (const [query, field] of [
      ['{ tags { name } }', 'tags'],
      ['{ authors { name } }', 'authors'],
      ['{ usersPermissionsUsers { username } }', 'usersPermissionsUsers'],
    ]) {
      const answer = await server.gql(query);
      expect({ query, status: answer.status, code: codeOf(answer), path: answer.body.errors?.[0]?.path, data: answer.body.data }).toEqual({ query, status: 200, code: 'FORBIDDEN', path: [field], data: null });
    }
    // a nullable root field answers null beside the error, as in Strapi's exchange 115
    expect((await server.gql('mutation { made: createArticle(data: { title: "x" }) { documentId } }')).body).toEqual({
      data: { made: null },
      errors: [{ message: 'Forbidden access', path: ['made'], extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } } }],
    });
  });

  test('allowed root fields run beside forbidden ones, which answer null with their own error, as in Strapi', async () => {
    const answer = await server.gql('query { tag(documentId: "x") { name } articles { title } ...More } fragment More on Query { author(documentId: "y") { name } }');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ tag: null, articles: [{ title: 'Hello' }], author: null });
    expect(answer.body.errors!.map((error) => [error.path, error.extensions!.code])).toEqual([
      [['tag'], 'FORBIDDEN'],
      [['author'], 'FORBIDDEN'],
    ]);
    // a forbidden field deep inside makes its root field the forbidden one; a non-null list's null takes data with it
    const nested = await server.gql('{ articles { title } categories { name articles { title tags { name } } } }');
    expect(nested.body).toMatchObject({ data: null, errors: [{ path: ['categories'], extensions: { code: 'FORBIDDEN' } }] });
  });

  test('a forbidden mutation beside an allowed query: nothing is written', async () => {
    const answer = await server.gql('mutation { createTag(data: { name: "sneaky" }) { documentId } }');
    expect(answer.body).toMatchObject({ data: { createTag: null }, errors: [{ path: ['createTag'], extensions: { code: 'FORBIDDEN' } }] });
    expect(await server.folio.services.store.collection('tags').countDocuments({ name: 'sneaky' })).toBe(0);
  });

  test('public grants: find allows the list and connection, findOne the single query', async () => {
    expect((await server.gql('{ articles { title } }')).body).toEqual({ data: { articles: [{ title: 'Hello' }] } });
    expect(codeOf(await server.gql('{ articles_connection { pageInfo { total } } }'))).toBeUndefined();
    expect(codeOf(await server.gql('{ article(documentId: "nope") { title } }'))).toBeUndefined();
  });

  test('a user gets the authenticated role\'s grants and not the public ones', async () => {
    const { headers } = await registerUser(server);
    expect((await server.gql('{ tags { name } }', {}, headers)).body).toEqual({ data: { tags: [{ name: 'news' }] } });
    expect(codeOf(await server.gql('{ articles { title } }', {}, headers))).toBe('FORBIDDEN');
  });

  test('a user whose role is another declared role gets that role\'s grants', async () => {
    const { user, headers } = await registerUser(server);
    await promote(user.id, 'editor');
    const created = await server.gql('mutation { createArticle(data: { title: "By an editor" }) { title } }', {}, headers);
    expect(created.body).toEqual({ data: { createArticle: { title: 'By an editor' } } });
    expect(codeOf(await server.gql('{ tags { name } }', {}, headers))).toBe('FORBIDDEN');
    expect((await server.gql('{ me { role { type name } } }', {}, headers)).body).toEqual({ data: { me: { role: { type: 'editor', name: 'Editor' } } } });
  });
});

describe('single types', () => {
  test('find allows the query, update and delete their mutations', async () => {
    const tokens = server.folio.services.credentials.tokens;
    const editor = bearer((await tokens.create({ name: 'homepage-editor', type: 'custom', permissions: ['api::homepage.homepage.update'] })).accessKey);
    const reader = bearer((await tokens.create({ name: 'homepage-reader', type: 'custom', permissions: ['api::homepage.homepage.find'] })).accessKey);
    expect((await server.gql('mutation { updateHomepage(data: { headline: "Home" }) { headline } }', {}, editor)).body).toEqual({ data: { updateHomepage: { headline: 'Home' } } });
    expect(codeOf(await server.gql('{ homepage { headline } }', {}, editor))).toBe('FORBIDDEN');
    expect((await server.gql('{ homepage { headline } }', {}, reader)).body).toEqual({ data: { homepage: { headline: 'Home' } } });
    expect(codeOf(await server.gql('mutation { deleteHomepage { documentId } }', {}, reader))).toBe('FORBIDDEN');
    expect(codeOf(await server.gql('mutation { deleteHomepage { documentId } }', {}, editor))).toBe('FORBIDDEN');
    const deleter = bearer((await tokens.create({ name: 'homepage-deleter', type: 'custom', permissions: ['api::homepage.homepage.delete'] })).accessKey);
    expect(codeOf(await server.gql('mutation { deleteHomepage { documentId } }', {}, deleter))).toBeUndefined();
  });
});

describe('relations need find on their target, wherever they are selected', () => {
  test('selected directly, in a fragment, in an inline fragment, or as a connection', async () => {
    for (const query of [
      '{ articles { title category { name } } }',
      '{ articles { ...A } } fragment A on Article { category { name } }',
      '{ articles { ... on Article { category { name } } } }',
      '{ articles { ...A } } fragment A on Article { ...B } fragment B on Article { tags_connection { nodes { name } } }',
    ]) {
      expect({ query, code: codeOf(await server.gql(query)) }).toEqual({ query, code: 'FORBIDDEN' });
    }
    const { user, headers } = await registerUser(server);
    await promote(user.id, 'editor');
    expect((await server.gql('{ articles(filters: { title: { eq: "Hello" } }) { category { name } } }', {}, headers)).body).toEqual({ data: { articles: [{ category: { name: 'Tech' } }] } });
  });

  test('filtering through a relation the caller may not read is refused like an unknown key', async () => {
    const answer = await server.gql('{ articles(filters: { category: { name: { eq: "Tech" } } }) { title } }');
    expect(answer.body.errors![0]).toMatchObject({ message: 'Invalid key category', extensions: { code: 'BAD_USER_INPUT' } });
  });

  test('only the operation that runs is checked', async () => {
    const document = 'query Open { articles(filters: { title: { eq: "Hello" } }) { title } } query Closed { tags { name } }';
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: document, operationName: 'Open' }),
    });
    expect(await response.json()).toEqual({ data: { articles: [{ title: 'Hello' }] } });
  });
});

describe('API tokens', () => {
  test('full-access can do anything', async () => {
    const answer = await server.gql('mutation { createTag(data: { name: "full" }) { name } }', {}, server.asAdmin);
    expect(answer.body).toEqual({ data: { createTag: { name: 'full' } } });
  });

  test('read-only can find and findOne everything, and nothing else', async () => {
    const headers = bearer(READ_ONLY_TOKEN);
    expect(codeOf(await server.gql('{ tags { name } authors { name } usersPermissionsUsers { username } }', {}, headers))).toBeUndefined();
    expect(codeOf(await server.gql('mutation { createTag(data: { name: "ro" }) { name } }', {}, headers))).toBe('FORBIDDEN');
  });

  test('custom holds exactly its permissions', async () => {
    const headers = bearer(CUSTOM_TOKEN);
    expect((await server.gql('mutation { createTag(data: { name: "custom" }) { name } }', {}, headers)).body).toEqual({ data: { createTag: { name: 'custom' } } });
    expect(codeOf(await server.gql('{ articles { title } }', {}, headers))).toBe('FORBIDDEN');
  });

  test('an expired token and a revoked one are 401, even where the public could read', async () => {
    // used while valid, so its lookup is kept: it still expires
    const { accessKey } = await server.folio.services.credentials.tokens.create({ name: 'lapsing', type: 'read-only', expiresIn: '1s' });
    expect((await server.gql('{ articles { title } }', {}, bearer(accessKey))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await server.gql('{ articles { title } }', {}, bearer(accessKey));
    expect(expired.status).toBe(401);
    expect(expired.body.errors![0]).toMatchObject({ message: 'Missing or invalid credentials', extensions: { code: 'UNAUTHENTICATED' } });
    // used before, so its lookup is kept: a revoke drops it
    expect((await server.gql('{ tags { name } }', {}, bearer(CUSTOM_TOKEN))).status).toBe(200);
    await server.folio.services.credentials.tokens.revoke('tagger');
    expect((await server.gql('{ articles { title } }', {}, bearer(CUSTOM_TOKEN))).status).toBe(401);
    expect((await call(server.url, 'GET', '/api/users/count', { headers: bearer(CUSTOM_TOKEN) })).status).toBe(401);
  });

  test('a token name given again to fewer permissions does not keep the old token\'s verdicts', async () => {
    const tokens = server.folio.services.credentials.tokens;
    const broad = bearer((await tokens.create({ name: 'reused', type: 'custom', permissions: ['api::tag.tag.find'] })).accessKey);
    expect(codeOf(await server.gql('{ tags { name } }', {}, broad))).toBeUndefined();
    await tokens.revoke('reused');
    const narrow = bearer((await tokens.create({ name: 'reused', type: 'custom', permissions: ['api::author.author.find'] })).accessKey);
    expect(codeOf(await server.gql('{ tags { name } }', {}, narrow))).toBe('FORBIDDEN');
  });

  test('only a keyed hash of each access key is stored', async () => {
    const stored = JSON.stringify(await server.folio.services.store.collection('api_tokens').find({}));
    expect(stored).not.toContain(READ_ONLY_TOKEN);
    expect(stored).not.toContain('test-full-access-token');
  });
});

describe('credentials that open nothing are 401 on both surfaces', () => {
  const now = () => Math.floor(Date.now() / 1000);
  let userId: number;
  beforeAll(async () => {
    userId = (await registerUser(server)).user.id;
  });

  const cases: Array<[string, () => string]> = [
    ['an unknown token', () => 'Bearer not-a-valid-token'],
    ['a bearer without a credential', () => 'Bearer'],
    ['another scheme', () => 'Basic dXNlcjpwYXNz'],
    ['a JWT with alg none', () => `Bearer ${jwt.sign({ id: userId }, '', { algorithm: 'none' })}`],
    ['a JWT signed with another key', () => `Bearer ${jwt.sign({ id: userId }, 'another-secret-another-secret-1234', { algorithm: 'HS256' })}`],
    ['a JWT signed with HS512', () => `Bearer ${jwt.sign({ id: userId }, JWT_SECRET, { algorithm: 'HS512' })}`],
    ['an expired JWT', () => `Bearer ${jwt.sign({ id: userId, iat: now() - 100, exp: now() - 10 }, JWT_SECRET, { algorithm: 'HS256' })}`],
    ['a JWT for a user that does not exist', () => `Bearer ${jwt.sign({ id: 987654 }, JWT_SECRET, { algorithm: 'HS256' })}`],
    ['a JWT without an id', () => `Bearer ${jwt.sign({ sub: 'x' }, JWT_SECRET, { algorithm: 'HS256' })}`],
  ];

  test.each(cases)('%s', async (_, authorization) => {
    const header = { authorization: authorization() };
    const graphql = await server.gql('{ articles { title } }', {}, header);
    expect(graphql.status).toBe(401);
    expect(graphql.body).toEqual({
      errors: [{ message: 'Missing or invalid credentials', extensions: { code: 'UNAUTHENTICATED', error: { name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } } }],
    });
    const rest = await call(server.url, 'GET', '/api/users/me', { headers: header });
    expect(rest).toMatchObject({ status: 401, body: { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } } });
  });

  test('a valid JWT signed with the configured secret works, and stops working once its user is deleted', async () => {
    const token = jwt.sign({ id: userId }, JWT_SECRET, { algorithm: 'HS256', expiresIn: 60 });
    expect((await server.gql('{ me { username } }', {}, bearer(token))).status).toBe(200);
    await server.folio.services.store.collection('up_users').deleteOne({ id: userId });
    expect((await server.gql('{ me { username } }', {}, bearer(token))).status).toBe(401);
  });
});

describe('REST runs through the same check', () => {
  test('grants, missing grants, and a user not getting the public grants', async () => {
    expect((await call(server.url, 'GET', '/api/articles?fields[0]=title')).status).toBe(200);
    expect(await call(server.url, 'GET', '/api/tags')).toMatchObject({ status: 403, body: { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } } });
    const { headers } = await registerUser(server);
    expect((await call(server.url, 'GET', '/api/articles', { headers })).status).toBe(403);
    expect((await call(server.url, 'GET', '/api/tags', { headers })).status).toBe(200);
  });

  test('populating or filtering through a relation needs find on its target', async () => {
    expect((await call(server.url, 'GET', '/api/articles?populate=category')).status).toBe(403);
    expect((await call(server.url, 'GET', '/api/articles?filters[category][name][$eq]=Tech')).status).toBe(400);
    const { headers } = await registerUser(server);
    expect((await call(server.url, 'GET', '/api/categories?filters[articles][title][$eq]=Hello', { headers })).status).toBe(400);
  });

  test('token types and bad credentials', async () => {
    expect((await call(server.url, 'POST', '/api/tags', { body: { data: { name: 'rest' } }, headers: server.asAdmin })).status).toBe(201);
    const tokens = server.folio.services.credentials.tokens;
    const readOnly = bearer((await tokens.create({ name: 'rest-reader', type: 'read-only' })).accessKey);
    expect((await call(server.url, 'GET', '/api/authors', { headers: readOnly })).status).toBe(200);
    expect((await call(server.url, 'POST', '/api/authors', { body: { data: { name: 'x' } }, headers: readOnly })).status).toBe(403);
    await tokens.revoke('rest-reader');
    expect((await call(server.url, 'GET', '/api/authors', { headers: readOnly })).status).toBe(401);
    const unknown = await call(server.url, 'GET', '/api/articles', { headers: bearer('not-a-valid-token') });
    expect(unknown).toMatchObject({ status: 401, body: { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } } });
  });
});

