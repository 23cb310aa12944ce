import { startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';

/**
 * Relations in a component nested in a component (article.hero.cta.article), a to-many in a
 * component (hero.tags) and in a repeatable one (hero.links): GraphQL inputs with Strapi's typed
 * variables, fields and connections with their arguments, filters through them, REST populate,
 * and the document's status carried down to what they read.
 */

type Json = Record<string, unknown>;

let schema: SchemaCopy;
let server: TestServer;

beforeAll(async () => {
  schema = copyExampleSchema();
  schema.writeComponent('shared.cta', {
    label: { type: 'string' },
    article: { type: 'relation', relation: 'oneToOne', target: 'api::article.article' },
    category: { type: 'relation', relation: 'oneToOne', target: 'api::category.category' },
  });
  schema.writeComponent('shared.hero', {
    title: { type: 'string' },
    cta: { type: 'component', repeatable: false, component: 'shared.cta' },
    links: { type: 'component', repeatable: true, component: 'shared.cta' },
    tags: { type: 'relation', relation: 'oneToMany', target: 'api::tag.tag' },
  });
  schema.editContentType('article', (model) => {
    model.attributes.hero = { type: 'component', repeatable: false, component: 'shared.hero' };
  });
  server = await startTestServer({ schemaDir: schema.schemaDir });
});
afterAll(async () => {
  await server.stop();
  schema.remove();
});

const ok = async <T = Json>(query: string, variables: Json = {}): Promise<T> => {
  const answer = await server.gql<T>(query, variables, server.asAdmin);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data as T;
};

const named = async (type: 'Tag' | 'Category', name: string): Promise<string> =>
  (await ok<Record<string, { documentId: string }>>(`mutation($n: String!) { create${type}(data: { name: $n }) { documentId } }`, { n: name }))[`create${type}`].documentId;

const rest = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...server.asAdmin }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
};

test('written through GraphQL inputs with ID and [ID] variables, read with arguments, filtered through, populated over REST', async () => {
  const tags = [await named('Tag', 'hero-a'), await named('Tag', 'hero-b'), await named('Tag', 'hero-c')];
  const [news, sport] = [await named('Category', 'News'), await named('Category', 'Sport')];
  const created = await ok<{ createArticle: { documentId: string } }>(
    `mutation($tags: [ID], $news: ID, $sport: ID) {
      createArticle(data: { title: "Hero", hero: { title: "Big", tags: $tags, cta: { label: "Go", category: $news }, links: [{ label: "one", category: $news }, { label: "two", category: $sport }] } }) { documentId }
    }`,
    { tags, news, sport },
  );
  const { documentId } = created.createArticle;

  const read = await ok<{ article: { hero: Json } }>(
    `query($id: ID!) { article(documentId: $id) { hero {
      title cta { label category { name } }
      tags(sort: "name:desc") { name } first: tags_connection(sort: "name:asc", pagination: { limit: 1 }) { nodes { name } }
      links(filters: { category: { name: { eq: "Sport" } } }) { label category { name } }
    } } }`,
    { id: documentId },
  );
  expect(read.article.hero).toEqual({
    title: 'Big',
    cta: { label: 'Go', category: { name: 'News' } },
    tags: [{ name: 'hero-c' }, { name: 'hero-b' }, { name: 'hero-a' }],
    first: { nodes: [{ name: 'hero-a' }] },
    links: [{ label: 'two', category: { name: 'Sport' } }],
  });

  const filtered = await ok<{ articles: Array<{ title: string }> }>('{ articles(filters: { hero: { cta: { category: { name: { eq: "News" } } } } }) { title } }');
  expect(filtered.articles).toEqual([{ title: 'Hero' }]);
  const none = await ok<{ articles: unknown[] }>('{ articles(filters: { hero: { links: { category: { name: { eq: "Nothing" } } } } }) { title } }');
  expect(none.articles).toEqual([]);

  const populated = await rest('GET', `/api/articles/${documentId}?populate[hero][populate][cta][populate]=category&populate[hero][populate][tags][fields][0]=name`);
  expect(populated.status).toBe(200);
  const hero = (populated.body.data as { hero: Json }).hero;
  expect(hero.cta).toEqual({ id: expect.any(Number), label: 'Go', category: expect.objectContaining({ documentId: news, name: 'News' }) });
  expect(hero.tags).toEqual(tags.map((tag, index) => ({ id: expect.any(Number), documentId: tag, name: `hero-${'abc'[index]}` })));
  const star = await rest('GET', `/api/articles/${documentId}?populate[hero][populate]=*`);
  expect((star.body.data as { hero: { cta: Json; links: Json[] } }).hero.cta).toEqual({ id: expect.any(Number), label: 'Go' });
});

test("a component's relation reads the version of its document's status: the draft's target draft, the published one's published", async () => {
  const target = await rest('POST', '/api/articles', { data: { title: 'Target v1' } });
  const targetId = (target.body.data as { documentId: string }).documentId;
  expect((await rest('PUT', `/api/articles/${targetId}?status=draft`, { data: { title: 'Target v2 draft' } })).status).toBe(200);
  const owner = await ok<{ createArticle: { hero: { cta: { article: { title: string } } } } }>(
    'mutation($t: ID) { createArticle(data: { title: "Owner", hero: { cta: { label: "see", article: $t } } }) { documentId hero { cta { article { title } } } } }',
    { t: targetId },
  );
  // the mutation published the owner: its result reads published targets; a draft's result, drafts
  expect(owner.createArticle.hero.cta.article.title).toBe('Target v1');
  const draftOwner = await ok<{ createArticle: { hero: { cta: { article: { title: string } } } } }>(
    'mutation($t: ID) { createArticle(status: DRAFT, data: { title: "Draft owner", hero: { cta: { label: "see", article: $t } } }) { hero { cta { article { title } } } } }',
    { t: targetId },
  );
  expect(draftOwner.createArticle.hero.cta.article.title).toBe('Target v2 draft');
  const both = await ok<{ published: Array<{ hero: Json }>; draft: Array<{ hero: Json }> }>(
    `{ published: articles(filters: { title: { eq: "Owner" } }) { hero { cta { article { title } } } }
       draft: articles(status: DRAFT, filters: { title: { eq: "Owner" } }) { hero { cta { article { title } } } } }`,
  );
  expect(both.published[0].hero).toEqual({ cta: { article: { title: 'Target v1' } } });
  expect(both.draft[0].hero).toEqual({ cta: { article: { title: 'Target v2 draft' } } });
  const restDraft = await rest('GET', '/api/articles?status=draft&filters[title][$eq]=Owner&populate[hero][populate][cta][populate]=article');
  expect(((restDraft.body.data as Array<{ hero: { cta: { article: Json } } }>)[0].hero.cta.article).title).toBe('Target v2 draft');
});

test("the relations argument writes Strapi's richer forms into components, by path; a relation given twice writes nothing", async () => {
  const [x, y, z] = [await named('Tag', 'path-x'), await named('Tag', 'path-y'), await named('Tag', 'path-z')];
  const sport = await named('Category', 'Path sport');
  const created = await ok<{ createArticle: { documentId: string; hero: { id: string; links: Array<{ id: string }> } } }>(
    `mutation($tags: [ID]) { createArticle(data: { title: "By path", hero: { tags: $tags, links: [{ label: "one" }, { label: "two" }] } }) { documentId hero { id links { id } } } }`,
    { tags: [x, y] },
  );
  const { documentId, hero } = created.createArticle;
  // the components keep their ids: connect adds to what they hold
  const data = { hero: { id: hero.id, links: hero.links.map(({ id }, index) => ({ id, label: ['one', 'two'][index] })) } };
  const update = `mutation($id: ID!, $data: ArticleInput!, $relations: [RelationWriteInput!]) {
    updateArticle(documentId: $id, data: $data, relations: $relations) { hero { tags { name } links { label category { name } } } }
  }`;
  const written = await server.gql<{ updateArticle: { hero: Json } }>(
    update,
    { id: documentId, data, relations: [{ path: ['hero', 'tags'], value: { connect: [{ documentId: z, position: { start: true } }] } }, { path: ['hero', 'links', '1', 'category'], value: { connect: [sport] } }] },
    server.asAdmin,
  );
  expect(written.body.errors).toBeUndefined();
  expect(written.body.data?.updateArticle.hero).toEqual({
    tags: [{ name: 'path-z' }, { name: 'path-x' }, { name: 'path-y' }],
    links: [{ label: 'one', category: null }, { label: 'two', category: { name: 'Path sport' } }],
  });
  const twice = { hero: { ...data.hero, tags: [x] } };
  const refused = await server.gql(update, { id: documentId, data: twice, relations: [{ path: ['hero', 'tags'], value: { set: [y] } }] }, server.asAdmin);
  expect(refused.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining('names a relation `data` gives too') });
  const read = await ok<{ article: { hero: { tags: Json[] } } }>('query($id: ID!) { article(documentId: $id) { hero { tags { name } } } }', { id: documentId });
  expect(read.article.hero.tags).toHaveLength(3);
});
