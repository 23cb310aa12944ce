import { startTestServer, type TestServer } from '../support/test-server';

/** Client operations written against Strapi's schema validate against Folio's: variables typed as Strapi types them. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['red', 'green']) await server.gql('mutation($n: String!) { createTag(data: { name: $n }) { documentId } }', { n: name }, server.asAdmin);
});
afterAll(() => server.stop());

test('$or: [TagFiltersInput] (nullable items, as in Strapi); a null item adds no condition', async () => {
  const answer = await server.gql<{ tags: Array<{ name: string }> }>(
    'query($or: [TagFiltersInput]) { tags(filters: { or: $or }, sort: "name") { name } }',
    { or: [{ name: { eq: 'red' } }, null, { name: { eq: 'green' } }] },
    server.asAdmin,
  );
  expect(answer.body).toEqual({ data: { tags: [{ name: 'green' }, { name: 'red' }] } });
  const and = await server.gql<{ tags: Array<{ name: string }> }>('{ tags(filters: { and: [null, { name: { eq: "red" } }] }) { name } }', {}, server.asAdmin);
  expect(and.body).toEqual({ data: { tags: [{ name: 'red' }] } });
});

test('relation inputs take ID and [ID] variables, as Strapi types them; other mistyped variables are still refused', async () => {
  const category = await server.gql<{ createCategory: { documentId: string } }>('mutation { createCategory(data: { name: "News" }) { documentId } }', {}, server.asAdmin);
  const tags = await server.gql<{ tags: Array<{ documentId: string }> }>('{ tags { documentId } }', {}, server.asAdmin);
  const created = await server.gql<{ createArticle: { category: { name: string }; tags: Array<{ name: string }> } }>(
    'mutation($c: ID, $tags: [ID]) { createArticle(data: { title: "Typed", category: $c, tags: $tags }) { category { name } tags(sort: "name") { name } } }',
    { c: category.body.data!.createCategory.documentId, tags: tags.body.data!.tags.map((tag) => tag.documentId) },
    server.asAdmin,
  );
  expect(created.body).toEqual({ data: { createArticle: { category: { name: 'News' }, tags: [{ name: 'green' }, { name: 'red' }] } } });
  const wrong = await server.gql('mutation($c: Int) { createArticle(data: { title: "x", category: $c }) { title } }', { c: 1 }, server.asAdmin);
  expect(wrong.status).toBe(400);
  const notRelation = await server.gql('mutation($t: ID) { createArticle(data: { title: $t }) { title } }', { t: 'x' }, server.asAdmin);
  expect(notRelation.status).toBe(400);
});

test("DateTimeFilterInput has Strapi's operators, text ones included, comparing the stored ISO text", async () => {
  const tags = await server.gql<{ tags: Array<{ createdAt: string }> }>('{ tags(pagination: { limit: 1 }) { createdAt } }', {}, server.asAdmin);
  const createdAt = tags.body.data!.tags[0].createdAt;
  const found = await server.gql<{ tags: unknown[] }>('query($at: DateTime) { tags(filters: { createdAt: { startsWith: $at } }) { name } }', { at: createdAt }, server.asAdmin);
  expect(found.body.errors).toBeUndefined();
  expect(found.body.data!.tags.length).toBeGreaterThan(0);
  const fields = await server.gql<{ __type: { inputFields: Array<{ name: string }> } }>('{ __type(name: "DateTimeFilterInput") { inputFields { name } } }', {}, server.asAdmin);
  const names = fields.body.data!.__type.inputFields.map((field) => field.name);
  for (const operator of ['eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains', 'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte', 'null', 'notNull', 'in', 'notIn', 'between']) {
    expect(names).toContain(operator);
  }
});

test("the input of a type that is not localized has Strapi's locale field: accepted on both surfaces and stored nowhere", async () => {
  const graphql = await server.gql<{ createTag: { name: string } }>('mutation($d: TagInput!) { createTag(data: $d) { name } }', { d: { name: 'blue', locale: 'fr' } }, server.asAdmin);
  expect(graphql.body).toEqual({ data: { createTag: { name: 'blue' } } });
  const rest = await fetch(`${server.url}/api/tags`, { method: 'POST', headers: { 'content-type': 'application/json', ...server.asAdmin }, body: JSON.stringify({ data: { name: 'cyan', locale: 'en' } }) });
  expect(rest.status).toBe(201);
  expect(((await rest.json()) as { data: Record<string, unknown> }).data).not.toHaveProperty('locale');
});
