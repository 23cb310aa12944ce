import { stringify } from 'qs';
import { startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema } from '../support/schema-copy';

/**
 * Scalar filter inputs as Strapi types them: a field's and/or list bare values (`$titles: [String]`), text operators
 * compare the text form of numbers, booleans and JSON, ranges order false before true. GraphQL and REST go through
 * the one translator and agree; REST's nested operator objects under a field's $and/$or keep working.
 */

let server: TestServer;
const ARTICLES = [
  { title: 'Five', views: 5, featured: true, extra: 'x5' },
  { title: 'Fifteen', views: 15, featured: false, extra: 15 },
  { title: 'One fifty', views: 150, featured: false, extra: { five: 5 } },
  { title: 'Seven', views: 7, featured: true, extra: 7 },
  { title: 'Blank', views: null, featured: null, extra: null },
];

beforeAll(async () => {
  server = await startTestServer();
  for (const data of ARTICLES) {
    const created = await server.gql('mutation($data: ArticleInput!) { createArticle(data: $data, status: PUBLISHED) { documentId } }', { data }, server.asAdmin);
    expect(created.body.errors).toBeUndefined();
  }
});
afterAll(() => server.stop());

const viaGraphql = async (query: string, variables: Record<string, unknown>): Promise<string[]> => {
  const answer = await server.gql<{ articles: Array<{ title: string }> }>(query, variables, server.asAdmin);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.articles.map((article) => article.title);
};

const viaRest = async (filters: Record<string, unknown>): Promise<string[]> => {
  const response = await fetch(`${server.url}/api/articles?${stringify({ filters, fields: ['title'], sort: 'title' }, { encodeValuesOnly: true, strictNullHandling: true })}`, { headers: server.asAdmin });
  const body = (await response.json()) as { data: Array<{ title: string }>; error?: unknown };
  expect({ status: response.status, error: body.error }).toEqual({ status: 200, error: undefined });
  return body.data.map((article) => article.title);
};

test.each<[string, string, string, unknown, Record<string, unknown>, string[]]>([
  ['or of strings: equal to one of them', 'title', 'or: [String]', ['Five', 'Seven', 'Nine'], { $or: ['Five', 'Seven', 'Nine'] }, ['Five', 'Seven']],
  ['and of strings: equal to each', 'title', 'and: [String]', ['Five', 'Five'], { $and: ['Five', 'Five'] }, ['Five']],
  ['and of two strings matches nothing', 'title', 'and: [String]', ['Five', 'Seven'], { $and: ['Five', 'Seven'] }, []],
  ['or of integers', 'views', 'or: [Int]', [5, 150], { $or: [5, 150] }, ['Five', 'One fifty']],
  ['a null item is equal to null', 'views', 'or: [Int]', [null, 7], { $or: [null, 7] }, ['Blank', 'Seven']],
  ['contains on an integer: its text', 'views', 'contains: Int', 5, { $contains: 5 }, ['Fifteen', 'Five', 'One fifty']],
  ['containsi on an integer', 'views', 'containsi: Int', 15, { $containsi: 15 }, ['Fifteen', 'One fifty']],
  ['startsWith on an integer', 'views', 'startsWith: Int', 1, { $startsWith: 1 }, ['Fifteen', 'One fifty']],
  ['endsWith on an integer', 'views', 'endsWith: Int', 5, { $endsWith: 5 }, ['Fifteen', 'Five']],
  ['notContains on an integer: a null has no text, so it does not contain', 'views', 'notContains: Int', 5, { $notContains: 5 }, ['Blank', 'Seven']],
  ['eqi on an integer', 'views', 'eqi: Int', 7, { $eqi: 7 }, ['Seven']],
  ['contains on a boolean: true or false as text', 'featured', 'contains: Boolean', true, { $contains: true }, ['Five', 'Seven']],
  ['nei on a boolean', 'featured', 'nei: Boolean', true, { $nei: true }, ['Blank', 'Fifteen', 'One fifty']],
  ['gt false on booleans: true', 'featured', 'gt: Boolean', false, { $gt: false }, ['Five', 'Seven']],
  ['lte false on booleans: false, never null', 'featured', 'lte: Boolean', false, { $lte: false }, ['Fifteen', 'One fifty']],
  ['lt false on booleans: nothing', 'featured', 'lt: Boolean', false, { $lt: false }, []],
  ['between on booleans', 'featured', 'between: [Boolean]', [false, true], { $between: [false, true] }, ['Fifteen', 'Five', 'One fifty', 'Seven']],
  ['contains on JSON: strings, numbers by their text, never objects', 'extra', 'contains: JSON', '5', { $contains: '5' }, ['Fifteen', 'Five']],
])('%s, over GraphQL and REST alike', async (_, field, typed, value, rest, expected) => {
  const [operator, type] = typed.split(': ');
  const graphql = await viaGraphql(`query($value: ${type}) { articles(filters: { ${field}: { ${operator}: $value } }, sort: "title") { title } }`, { value });
  expect(graphql).toEqual(expected);
  expect(await viaRest({ [field]: rest })).toEqual(expected);
});

test("REST's operator objects under a field's $and/$or/$not work as before, as the same conditions GraphQL writes at the level above", async () => {
  const rest = await viaRest({ title: { $or: [{ $startsWith: 'Fi' }, { $eq: 'Seven' }], $not: { $or: [{ $endsWith: 'teen' }, { $eq: 'Nothing' }] } } });
  const graphql = await viaGraphql(
    'query($or: [ArticleFiltersInput]) { articles(filters: { or: $or, not: { or: [{ title: { endsWith: "teen" } }, { title: { eq: "Nothing" } }] } }, sort: "title") { title } }',
    { or: [{ title: { startsWith: 'Fi' } }, { title: { eq: 'Seven' } }] },
  );
  expect(rest).toEqual(['Five', 'Seven']);
  expect(graphql).toEqual(rest);
  expect(await viaRest({ views: { $or: [{ $contains: 5 }, 7], $lt: 100 } })).toEqual(['Fifteen', 'Five', 'Seven']);
});

test('a nested operator object in a GraphQL and/or list is refused as Strapi types them', async () => {
  const answer = await server.gql('{ articles(filters: { title: { or: [{ eq: "Five" }] } }) { title } }', {}, server.asAdmin);
  expect(answer.status).toBe(400);
  expect(answer.body.errors?.[0].message).toMatch(/String cannot represent a non string value/);
});

test('inside a repeatable component, item by item, on both stores (MongoDB evaluates the component condition as one $expr over the list)', async () => {
  const schema = copyExampleSchema();
  schema.writeComponent('shared.keyword', { value: { type: 'string' }, weight: { type: 'integer' } });
  const own = await startTestServer({ schemaDir: schema.schemaDir });
  try {
    for (const [title, weights] of [['Light', [3, 4]], ['Heavy', [15, 2]]] as const) {
      const data = { title, seo: { metaTitle: title, keywords: weights.map((weight) => ({ value: `w${weight}`, weight })) } };
      expect((await own.gql('mutation($data: ArticleInput!) { createArticle(data: $data, status: PUBLISHED) { documentId } }', { data }, own.asAdmin)).body.errors).toBeUndefined();
    }
    const answer = await own.gql<{ articles: Array<{ title: string }> }>('{ articles(filters: { seo: { keywords: { weight: { startsWith: 1 }, value: { eq: "w15" } } } }) { title } }', {}, own.asAdmin);
    const rest = await fetch(`${own.url}/api/articles?filters[seo][keywords][weight][$contains]=5&fields[0]=title`, { headers: own.asAdmin });
    expect(answer.body).toEqual({ data: { articles: [{ title: 'Heavy' }] } });
    expect(((await rest.json()) as { data: Array<{ title: string }> }).data.map((article) => article.title)).toEqual(['Heavy']);
  } finally {
    await own.stop();
    schema.remove();
  }
});
