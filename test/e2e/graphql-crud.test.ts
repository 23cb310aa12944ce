import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const admin = () => server.asAdmin;

const createCategory = async (name: string) => {
  const { body } = await server.gql<{ createCategory: { documentId: string } }>(
    'mutation($name: String!) { createCategory(data: { name: $name }) { documentId name } }',
    { name },
    admin(),
  );
  expect(body.errors).toBeUndefined();
  return body.data!.createCategory.documentId;
};

describe('GraphQL CRUD', () => {
  test('create publishes by default; status DRAFT creates a draft only', async () => {
    const published = await server.gql<{ createArticle: Record<string, unknown> }>(
      'mutation { createArticle(data: { title: "Hello", views: 3, kind: news }) { documentId title views kind publishedAt locale } }',
      {},
      admin(),
    );
    expect(published.body.errors).toBeUndefined();
    const article = published.body.data!.createArticle;
    expect(article).toMatchObject({ title: 'Hello', views: 3, kind: 'news', locale: 'en' });
    expect(article.documentId).toMatch(/^[a-z0-9]{24}$/);
    expect(typeof article.publishedAt).toBe('string');

    const draft = await server.gql<{ createArticle: { documentId: string; publishedAt: string | null } }>(
      'mutation { createArticle(status: DRAFT, data: { title: "Draft only" }) { documentId publishedAt } }',
      {},
      admin(),
    );
    expect(draft.body.data!.createArticle.publishedAt).toBeNull();
    const draftId = draft.body.data!.createArticle.documentId;

    const publicRead = await server.gql<{ article: unknown }>('query($id: ID!) { article(documentId: $id) { title } }', { id: draftId });
    expect(publicRead.body).toEqual({ data: { article: null } });
    const draftRead = await server.gql<{ article: { title: string } }>(
      'query($id: ID!) { article(documentId: $id, status: DRAFT) { title publishedAt } }',
      { id: draftId },
    );
    expect(draftRead.body.data!.article).toEqual({ title: 'Draft only', publishedAt: null });
  });

  test('list, connection with pageInfo, sort and filters', async () => {
    for (const title of ['B list', 'A list', 'C list']) {
      await server.gql('mutation($t: String!) { createArticle(data: { title: $t, views: 10 }) { documentId } }', { t: title }, admin());
    }
    const list = await server.gql<{ articles: Array<{ title: string }> }>(
      '{ articles(filters: { title: { endsWith: " list" } }, sort: "title:desc") { title } }',
    );
    expect(list.body.data!.articles.map((a) => a.title)).toEqual(['C list', 'B list', 'A list']);

    const connection = await server.gql<{ articles_connection: { nodes: Array<{ title: string }>; pageInfo: Record<string, number> } }>(
      '{ articles_connection(filters: { title: { containsi: "LIST" } }, sort: ["title"], pagination: { page: 2, pageSize: 2 }) { nodes { title } pageInfo { page pageSize pageCount total } } }',
    );
    expect(connection.body.data!.articles_connection).toEqual({
      nodes: [{ title: 'C list' }],
      pageInfo: { page: 2, pageSize: 2, pageCount: 2, total: 3 },
    });
  });

  test('update keeps omitted attributes and publishes; status DRAFT touches only the draft', async () => {
    const created = await server.gql<{ createArticle: { documentId: string } }>(
      'mutation { createArticle(data: { title: "Original", summary: "kept" }) { documentId } }',
      {},
      admin(),
    );
    const id = created.body.data!.createArticle.documentId;
    const draftOnly = await server.gql<{ updateArticle: { title: string } }>(
      'mutation($id: ID!) { updateArticle(documentId: $id, status: DRAFT, data: { title: "Draft edit" }) { title summary publishedAt } }',
      { id },
      admin(),
    );
    expect(draftOnly.body.data!.updateArticle).toEqual({ title: 'Draft edit', summary: 'kept', publishedAt: null });
    const stillPublished = await server.gql<{ article: { title: string } }>('query($id: ID!) { article(documentId: $id) { title } }', { id });
    expect(stillPublished.body.data!.article.title).toBe('Original');

    const published = await server.gql<{ updateArticle: { title: string; summary: string } }>(
      'mutation($id: ID!) { updateArticle(documentId: $id, data: { views: 7 }) { title summary views } }',
      { id },
      admin(),
    );
    expect(published.body.data!.updateArticle).toEqual({ title: 'Draft edit', summary: 'kept', views: 7 });
    const read = await server.gql<{ article: { title: string } }>('query($id: ID!) { article(documentId: $id) { title views } }', { id });
    expect(read.body.data!.article).toEqual({ title: 'Draft edit', views: 7 });
  });

  test('locales: a new localization copies non-localized attributes; delete by locale', async () => {
    const created = await server.gql<{ createArticle: { documentId: string } }>(
      'mutation { createArticle(data: { title: "English", views: 42, featured: true }) { documentId } }',
      {},
      admin(),
    );
    const id = created.body.data!.createArticle.documentId;
    const french = await server.gql<{ updateArticle: Record<string, unknown> }>(
      'mutation($id: ID!) { updateArticle(documentId: $id, locale: "fr", data: { title: "Français" }) { documentId title views featured locale } }',
      { id },
      admin(),
    );
    expect(french.body.data!.updateArticle).toEqual({ documentId: id, title: 'Français', views: 42, featured: true, locale: 'fr' });

    const frList = await server.gql<{ articles: Array<{ title: string }> }>('{ articles(locale: "fr") { title localizations { locale title } } }');
    expect(frList.body.data!.articles).toEqual([{ title: 'Français', localizations: [{ locale: 'en', title: 'English' }] }]);

    const removed = await server.gql('mutation($id: ID!) { deleteArticle(documentId: $id, locale: "fr") { documentId } }', { id }, admin());
    expect(removed.body).toEqual({ data: { deleteArticle: { documentId: id } } });
    const frAfter = await server.gql<{ article: unknown }>('query($id: ID!) { article(documentId: $id, locale: "fr") { title } }', { id });
    expect(frAfter.body.data!.article).toBeNull();
    const enAfter = await server.gql<{ article: { title: string } }>('query($id: ID!) { article(documentId: $id) { title } }', { id });
    expect(enAfter.body.data!.article.title).toBe('English');

    const unknownLocale = await server.gql('{ articles(locale: "de") { title } }');
    expect(unknownLocale.body.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
  });

  test('relations by documentId, read back from both sides', async () => {
    const tech = await createCategory('Tech');
    const created = await server.gql<{ createArticle: { category: { name: string } } }>(
      'mutation($c: ID) { createArticle(data: { title: "With category", category: $c }) { documentId category { name } } }',
      { c: tech },
      admin(),
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data!.createArticle.category).toEqual({ name: 'Tech' });
    const category = await server.gql<{ category: { articles: Array<{ title: string }> } }>(
      'query($id: ID!) { category(documentId: $id) { name articles { title } } }',
      { id: tech },
    );
    expect(category.body.data!.category.articles).toEqual([{ title: 'With category' }]);
  });

  test('single type: update creates, read, delete', async () => {
    const before = await server.gql('{ homepage { headline } }');
    expect(before.body).toEqual({ data: { homepage: null } });
    const created = await server.gql<{ updateHomepage: { headline: string } }>(
      'mutation { updateHomepage(data: { headline: "Welcome", seo: { metaTitle: "Home", keywords: [{ value: "a" }, { value: "b" }] } }) { headline seo { metaTitle keywords { value } } } }',
      {},
      admin(),
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data!.updateHomepage).toEqual({ headline: 'Welcome', seo: { metaTitle: 'Home', keywords: [{ value: 'a' }, { value: 'b' }] } });
    const read = await server.gql('{ homepage { headline } }');
    expect(read.body).toEqual({ data: { homepage: { headline: 'Welcome' } } });
    const deleted = await server.gql<{ deleteHomepage: { documentId: string } }>('mutation { deleteHomepage { documentId } }', {}, admin());
    expect(deleted.body.data!.deleteHomepage.documentId).toMatch(/^[a-z0-9]{24}$/);
    const after = await server.gql('{ homepage { headline } }');
    expect(after.body).toEqual({ data: { homepage: null } });
  });
});

describe('GraphQL bad input', () => {
  test('missing required attribute: BAD_USER_INPUT, nothing written', async () => {
    const before = await server.gql<{ articles_connection: { pageInfo: { total: number } } }>(
      '{ articles_connection(status: DRAFT) { pageInfo { total } } }',
    );
    const result = await server.gql('mutation { createArticle(data: { summary: "no title" }) { documentId } }', {}, admin());
    expect(result.status).toBe(200);
    expect(result.body.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      error: { name: 'ValidationError', details: { errors: [{ path: ['title'], name: 'ValidationError' }] } },
    });
    const after = await server.gql<{ articles_connection: { pageInfo: { total: number } } }>(
      '{ articles_connection(status: DRAFT) { pageInfo { total } } }',
    );
    expect(after.body.data!.articles_connection.pageInfo.total).toBe(before.body.data!.articles_connection.pageInfo.total);
  });

  test('unique attribute, unknown relation target, wrong value types', async () => {
    await createCategory('Unique');
    const duplicate = await server.gql('mutation { createCategory(data: { name: "Unique" }) { documentId } }', {}, admin());
    expect(duplicate.body.errors![0]).toMatchObject({ message: 'This attribute must be unique', extensions: { code: 'BAD_USER_INPUT' } });

    const missing = await server.gql('mutation { createArticle(data: { title: "x", category: "doesnotexist" }) { documentId } }', {}, admin());
    expect(missing.body.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
    expect(missing.body.errors![0].message).toContain('doesnotexist');

    const wrongType = await server.gql('mutation { createArticle(data: { title: "x", views: "many" }) { documentId } }', {}, admin());
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  test('update and delete of a missing document: NOT_FOUND; reading one: null', async () => {
    const update = await server.gql('mutation { updateArticle(documentId: "nope", data: { title: "x" }) { documentId } }', {}, admin());
    expect(update.body.errors![0].extensions!.code).toBe('NOT_FOUND');
    const remove = await server.gql('mutation { deleteArticle(documentId: "nope") { documentId } }', {}, admin());
    expect(remove.body.errors![0].extensions!.code).toBe('NOT_FOUND');
    const read = await server.gql('{ article(documentId: "nope") { title } }');
    expect(read.body).toEqual({ data: { article: null } });
  });

  test('a malformed scalar in variables is BAD_USER_INPUT, never an internal error', async () => {
    for (const [query, variables] of [
      ['query($l: I18NLocaleCode) { articles(locale: $l) { title } }', { l: 'bad locale' }],
      ['query($d: ArticleInput!) { articles { title } }', { d: { publishDate: 'not a date' } }],
      ['query($s: [ArticleSectionsDynamicZoneInput!]) { articles { title } }', { s: [null] }],
    ] as const) {
      const result = await server.gql(query, variables as Record<string, unknown>);
      expect(result.status).toBe(400);
      expect(result.body.errors![0].extensions!.code).not.toBe('INTERNAL_SERVER_ERROR');
    }
  });

  test('private by default: public mutations are FORBIDDEN with HTTP 200', async () => {
    const result = await server.gql('mutation { createArticle(data: { title: "x" }) { documentId } }');
    expect(result.status).toBe(200);
    expect(result.body.errors![0].extensions!.code).toBe('FORBIDDEN');
  });
});
