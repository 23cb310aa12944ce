import { startTestServer, type TestServer } from '../support/test-server';

/**
 * `publicationFilter` and `hasPublishedVersion` (Strapi 5.54's query arguments): documents chosen by
 * how their draft and published versions relate, on GraphQL and REST, inherited by relations.
 */

let server: TestServer;
const ids: Record<string, string> = {};

const gql = async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
  const answer = await server.gql<T>(query, variables, server.asAdmin);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data as T;
};

const create = async (title: string, status: 'DRAFT' | 'PUBLISHED', category?: string) =>
  (
    await gql<{ createArticle: { documentId: string } }>('mutation($d: ArticleInput!, $s: PublicationStatus) { createArticle(data: $d, status: $s) { documentId } }', {
      d: { title, category },
      s: status,
    })
  ).createArticle.documentId;

beforeAll(async () => {
  server = await startTestServer();
  const category = (await gql<{ createCategory: { documentId: string } }>('mutation { createCategory(data: { name: "cohorts" }) { documentId } }')).createCategory.documentId;
  ids.draftOnly = await create('cohort draft only', 'DRAFT');
  ids.unmodified = await create('cohort unmodified', 'PUBLISHED', category);
  ids.modified = await create('cohort modified', 'PUBLISHED', category);
  // a later edit of the draft only: the published version stays as it was
  await new Promise((resolve) => setTimeout(resolve, 5));
  await gql('mutation($id: ID!) { updateArticle(documentId: $id, status: DRAFT, data: { title: "cohort modified (edited)" }) { documentId } }', { id: ids.modified });
  // published in French only: never published in English, yet published somewhere
  ids.frenchOnly = await create('cohort french only', 'DRAFT');
  await gql('mutation($id: ID!) { updateArticle(documentId: $id, locale: "fr", data: { title: "cohorte en français" }) { documentId } }', { id: ids.frenchOnly });
});
afterAll(() => server.stop());

const titles = async (args: string): Promise<string[]> => {
  const data = await gql<{ articles: Array<{ title: string }> }>(`{ articles(filters: { title: { startsWith: "cohort" } }, sort: "title", ${args}) { title } }`);
  return data.articles.map((article) => article.title);
};

describe('GraphQL', () => {
  test.each([
    ['status: DRAFT, publicationFilter: NEVER_PUBLISHED', ['cohort draft only', 'cohort french only']],
    ['status: DRAFT, publicationFilter: NEVER_PUBLISHED_DOCUMENT', ['cohort draft only']],
    ['status: DRAFT, publicationFilter: HAS_PUBLISHED_VERSION', ['cohort modified (edited)', 'cohort unmodified']],
    ['status: DRAFT, publicationFilter: HAS_PUBLISHED_VERSION_DOCUMENT', ['cohort french only', 'cohort modified (edited)', 'cohort unmodified']],
    ['status: DRAFT, publicationFilter: MODIFIED', ['cohort modified (edited)']],
    ['publicationFilter: MODIFIED', ['cohort modified']],
    ['publicationFilter: UNMODIFIED', ['cohort unmodified']],
    ['status: DRAFT, publicationFilter: UNMODIFIED', ['cohort unmodified']],
    ['publicationFilter: PUBLISHED_WITH_DRAFT', ['cohort modified', 'cohort unmodified']],
    ['publicationFilter: PUBLISHED_WITHOUT_DRAFT', []],
    ['publicationFilter: NEVER_PUBLISHED', []],
    ['status: DRAFT, hasPublishedVersion: false', ['cohort draft only', 'cohort french only']],
    ['status: DRAFT, hasPublishedVersion: true', ['cohort modified (edited)', 'cohort unmodified']],
    ['status: DRAFT, hasPublishedVersion: true, publicationFilter: MODIFIED', ['cohort modified (edited)']],
    ['status: DRAFT', ['cohort draft only', 'cohort french only', 'cohort modified (edited)', 'cohort unmodified']],
  ])('articles(%s)', async (args, expected) => {
    expect(await titles(args)).toEqual(expected);
  });

  test('counts, single documents and the French locale follow the cohort', async () => {
    const connection = await gql<{ articles_connection: { pageInfo: { total: number } } }>(
      '{ articles_connection(filters: { title: { startsWith: "cohort" } }, status: DRAFT, publicationFilter: NEVER_PUBLISHED) { pageInfo { total } } }',
    );
    expect(connection.articles_connection.pageInfo.total).toBe(2);
    const one = (id: string, filter: string) => gql<{ article: { title: string } | null }>(`query($id: ID!) { article(documentId: $id, status: DRAFT, publicationFilter: ${filter}) { title } }`, { id });
    expect((await one(ids.modified, 'MODIFIED')).article).toEqual({ title: 'cohort modified (edited)' });
    expect((await one(ids.unmodified, 'MODIFIED')).article).toBeNull();
    const french = await gql<{ articles: Array<{ title: string }> }>('{ articles(locale: "fr", publicationFilter: HAS_PUBLISHED_VERSION) { title } }');
    expect(french.articles).toEqual([{ title: 'cohorte en français' }]);
  });

  test('relations inherit the cohort', async () => {
    const data = await gql<{ categories: Array<{ articles: Array<{ title: string }> }> }>(
      '{ categories(filters: { name: { eq: "cohorts" } }, publicationFilter: MODIFIED) { articles { title } } }',
    );
    expect(data.categories).toEqual([{ articles: [{ title: 'cohort modified' }] }]);
  });

  test('an unknown cohort is a validation error', async () => {
    const answer = await server.gql('{ articles(publicationFilter: SOMETIMES) { title } }', {}, server.asAdmin);
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('REST', () => {
  const get = async (query: string) => {
    const response = await fetch(`${server.url}/api/articles?filters[title][$startsWith]=cohort&sort=title&${query}`, { headers: server.asAdmin });
    return { status: response.status, body: (await response.json()) as { data: Array<{ title: string }> | null; error?: Record<string, unknown> } };
  };

  test('publicationFilter and hasPublishedVersion, as on GraphQL', async () => {
    expect((await get('status=draft&publicationFilter=modified')).body.data!.map((article) => article.title)).toEqual(['cohort modified (edited)']);
    expect((await get('publicationFilter=unmodified')).body.data!.map((article) => article.title)).toEqual(['cohort unmodified']);
    expect((await get('status=draft&hasPublishedVersion=false')).body.data!.map((article) => article.title)).toEqual(['cohort draft only', 'cohort french only']);
    const one = await fetch(`${server.url}/api/articles/${ids.draftOnly}?status=draft&publicationFilter=never-published`, { headers: server.asAdmin });
    expect(one.status).toBe(200);
  });

  test.each([
    ['publicationFilter=sometimes', 'publicationFilter'],
    ['hasPublishedVersion=maybe', 'hasPublishedVersion'],
  ])('%s is a 400 naming the parameter', async (query, param) => {
    const answer = await get(query);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ status: 400, name: 'ValidationError', details: { key: param, source: 'query', param } });
  });
});
