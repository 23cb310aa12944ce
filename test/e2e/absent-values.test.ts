import { startTestServer, type TestServer } from '../support/test-server';

/** What was never written reads the same on both surfaces (an empty dynamic zone is `[]`) and is found as Strapi finds it. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

test('an article without sections: [] over GraphQL and REST', async () => {
  const created = await server.gql<{ createArticle: { documentId: string; sections: unknown } }>('mutation { createArticle(data: { title: "Bare" }) { documentId sections { __typename } } }', {}, server.asAdmin);
  expect(created.body.data!.createArticle.sections).toEqual([]);
  const listed = await server.gql<{ articles: Array<{ sections: unknown }> }>('{ articles(status: DRAFT) { sections { __typename } } }', {}, server.asAdmin);
  expect(listed.body.data!.articles).toEqual([{ sections: [] }]);
  const rest = (await (await fetch(`${server.url}/api/articles/${created.body.data!.createArticle.documentId}?status=draft&populate=sections`, { headers: server.asAdmin })).json()) as { data: { sections: unknown } };
  expect(rest.data.sections).toEqual([]);
});

test('a deep $null matches documents with no related document too, as Strapi\'s left join does', async () => {
  const category = await server.gql<{ createCategory: { documentId: string } }>('mutation { createCategory(data: { name: "News" }) { documentId } }', {}, server.asAdmin);
  await server.gql(`mutation { createArticle(data: { title: "Filed", category: "${category.body.data!.createCategory.documentId}" }, status: PUBLISHED) { documentId } }`, {}, server.asAdmin);
  await server.gql('mutation { createArticle(data: { title: "Loose" }, status: PUBLISHED) { documentId } }', {}, server.asAdmin);
  const titles = async (query: string) =>
    ((await (await fetch(`${server.url}/api/articles?${query}&fields[0]=title&sort=title`, { headers: server.asAdmin })).json()) as { data: Array<{ title: string }> }).data.map((article) => article.title);
  // 'Bare' (the test above) has no category either
  expect(await titles('filters[category][name][$null]=true')).toEqual(['Bare', 'Loose']);
  expect(await titles('filters[category][name][$notNull]=true')).toEqual(['Filed']);
  expect(await titles('filters[category][name][$eq]=News')).toEqual(['Filed']);
  const graphql = await server.gql<{ articles: Array<{ title: string }> }>('{ articles(filters: { category: { name: { null: true } } }, sort: "title") { title } }', {}, server.asAdmin);
  expect(graphql.body.data!.articles).toEqual([{ title: 'Bare' }, { title: 'Loose' }]);
});

test('$null and $notNull on a relation itself: to-one, to-many and inverse sides, over REST and GraphQL', async () => {
  const tag = await server.gql<{ createTag: { documentId: string } }>('mutation { createTag(data: { name: "presence" }) { documentId } }', {}, server.asAdmin);
  await server.gql(`mutation { createArticle(data: { title: "Tagged", tags: ["${tag.body.data!.createTag.documentId}"] }, status: PUBLISHED) { documentId } }`, {}, server.asAdmin);
  const titles = async (query: string) => {
    const answer = (await (await fetch(`${server.url}/api/articles?${query}&fields[0]=title&sort=title`, { headers: server.asAdmin })).json()) as { data: Array<{ title: string }> };
    return answer.data.map((article) => article.title);
  };
  // the articles so far: Bare, Loose (no category), Filed (category News), Tagged (a tag, no category)
  expect(await titles('filters[category][$null]=true')).toEqual(['Bare', 'Loose', 'Tagged']);
  expect(await titles('filters[category][$notNull]=true')).toEqual(['Filed']);
  expect(await titles('filters[category][$null]=false')).toEqual(['Filed']);
  expect(await titles('filters[tags][$notNull]=true')).toEqual(['Tagged']);
  expect(await titles('filters[tags][$null]=true&filters[category][$null]=true')).toEqual(['Bare', 'Loose']);
  expect(await titles('filters[category][$notNull]=true&filters[category][name][$eq]=News')).toEqual(['Filed']);
  await server.gql('mutation { createCategory(data: { name: "Empty" }) { documentId } }', {}, server.asAdmin);
  const categories = async (presence: string) =>
    ((await (await fetch(`${server.url}/api/categories?filters[articles][${presence}]=true&fields[0]=name`, { headers: server.asAdmin })).json()) as { data: Array<{ name: string }> }).data.map((category) => category.name);
  expect(await categories('$null')).toEqual(['Empty']);
  expect(await categories('$notNull')).toEqual(['News']);
  const graphql = await server.gql<{ articles: Array<{ title: string }> }>('{ articles(filters: { tags: { null: false } }) { title } }', {}, server.asAdmin);
  expect(graphql.body.data!.articles).toEqual([{ title: 'Tagged' }]);
  const root = await fetch(`${server.url}/api/articles?filters[$null]=true`, { headers: server.asAdmin });
  expect(root.status).toBe(400);
});
