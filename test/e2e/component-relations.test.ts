import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';
import { uploaded } from '../upload/upload-server';
import { png } from '../upload/images';
import { countStoreCalls, type StoreCalls } from '../support/store-calls';

/**
 * Relations and media inside components and dynamic zones, on foodadvisor's models as they are:
 * written in create and update bodies, read over GraphQL and REST populate, loaded in one store
 * query per relation field and level whatever the number of components.
 */

const FOODADVISOR = join(__dirname, '..', 'fixtures', 'foodadvisor');

type Json = Record<string, unknown>;

let server: TestServer;
let calls: StoreCalls;
let articles: string[];
let files: number[];

const rest = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
};

const createArticle = async (title: string): Promise<string> => {
  const created = await rest('POST', '/api/articles', { data: { title, ckeditor_content: `<p>${title}</p>` } });
  expect(created.status).toBe(201);
  return (created.body.data as { documentId: string }).documentId;
};

const blocksOf = (related: string[]) => [
  { __component: 'blocks.related-articles', articles: related },
  { __component: 'blocks.features', cards: [{ title: 'one', image: files[0] }, { title: 'two', image: files[1] }] },
  { __component: 'blocks.hero', text: 'Hi', images: files, buttons: [{ theme: 'primary', link: { href: '/menu', label: 'Menu' } }] },
];

beforeAll(async () => {
  server = await startTestServer({ schemaDir: FOODADVISOR, config: { plugins: {} } });
  calls = countStoreCalls(server.folio.services.store);
  files = (await uploaded(server, [{ name: 'a.png', content: png(8, 8), type: 'image/png' }, { name: 'b.png', content: png(8, 8), type: 'image/png' }])).map((file) => file.id);
  articles = [await createArticle('First'), await createArticle('Second'), await createArticle('Third')];
});
afterAll(() => server.stop());

test('a zone entry written over REST with documentIds and media ids reads back over GraphQL, relations and media resolved', async () => {
  const created = await rest('POST', '/api/pages', { data: { title: 'Home', slug: 'home', blocks: blocksOf([articles[1], articles[0]]) } });
  expect(created.status).toBe(201);
  const page = created.body.data as { documentId: string };
  const answer = await server.gql<{ page: Json }>(
    `query($id: ID!) { page(documentId: $id) { blocks { __typename
      ... on ComponentBlocksRelatedArticles { articles { title } byTitle: articles(sort: "title:asc", pagination: { limit: 1 }) { title }
        articles_connection(filters: { title: { eq: "First" } }) { nodes { title } } }
      ... on ComponentBlocksFeatures { cards { title image { name } } }
      ... on ComponentBlocksHero { images { name } buttons { link { href } } } } } }`,
    { id: page.documentId },
    server.asAdmin,
  );
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data!.page.blocks).toEqual([
    {
      __typename: 'ComponentBlocksRelatedArticles',
      articles: [{ title: 'Second' }, { title: 'First' }],
      byTitle: [{ title: 'First' }],
      articles_connection: { nodes: [{ title: 'First' }] },
    },
    { __typename: 'ComponentBlocksFeatures', cards: [{ title: 'one', image: { name: 'a.png' } }, { title: 'two', image: { name: 'b.png' } }] },
    { __typename: 'ComponentBlocksHero', images: [{ name: 'a.png' }, { name: 'b.png' }], buttons: [{ link: { href: '/menu' } }] },
  ]);
});

test("REST populate reaches into zone entries: on a component, Strapi 5's shared populate, and populate=* one level deep", async () => {
  const created = await rest('POST', '/api/pages', { data: { title: 'Populated', slug: 'populated', blocks: blocksOf([articles[2]]) } });
  const { documentId } = created.body.data as { documentId: string };

  const on = await rest('GET', `/api/pages/${documentId}?populate[blocks][on][blocks.features][populate][cards][populate]=image&populate[blocks][on][blocks.related-articles][populate][articles][fields][0]=title`);
  expect(on.status).toBe(200);
  const onBlocks = (on.body.data as { blocks: Json[] }).blocks;
  expect(onBlocks.map((block) => block.__component)).toEqual(['blocks.related-articles', 'blocks.features']);
  expect(onBlocks[0].articles).toEqual([{ id: expect.any(Number), documentId: articles[2], title: 'Third' }]);
  expect((onBlocks[1].cards as Json[]).map((card) => (card.image as Json).name)).toEqual(['a.png', 'b.png']);

  const shared = await rest('GET', `/api/pages/${documentId}?populate[blocks][populate]=*`);
  expect(shared.status).toBe(200);
  const sharedBlocks = (shared.body.data as { blocks: Json[] }).blocks;
  expect((sharedBlocks[0].articles as Json[]).map((article) => article.title)).toEqual(['Third']);
  expect((sharedBlocks[1].cards as Json[]).map((card) => card.title)).toEqual(['one', 'two']);
  // one level: the cards' images are not populated by `*`
  expect((sharedBlocks[1].cards as Json[])[0]).not.toHaveProperty('image');
  expect((sharedBlocks[2].images as Json[]).map((image) => image.name)).toEqual(['a.png', 'b.png']);

  const star = await rest('GET', `/api/pages/${documentId}?populate=*`);
  expect(star.status).toBe(200);
  const starBlocks = (star.body.data as { blocks: Json[] }).blocks;
  expect(starBlocks[0]).toEqual({ __component: 'blocks.related-articles', id: expect.any(Number) });
});

test('connect, disconnect and set in a kept zone entry change its relation; a missing documentId is a 400 and nothing is stored', async () => {
  const created = await rest('POST', '/api/pages', { data: { title: 'Edited', slug: 'edited', blocks: blocksOf([articles[0]]) } });
  const { documentId } = created.body.data as { documentId: string };
  const read = async () => {
    const answer = await rest('GET', `/api/pages/${documentId}?populate[blocks][on][blocks.related-articles][populate][articles][fields][0]=title`);
    return (answer.body.data as { blocks: Array<{ id: number; articles: Json[] }> }).blocks[0];
  };
  const entry = await read();
  const update = (change: unknown) =>
    rest('PUT', `/api/pages/${documentId}`, { data: { blocks: [{ __component: 'blocks.related-articles', id: entry.id, articles: change }] } });

  expect((await update({ connect: [articles[2], { documentId: articles[1], position: { start: true } }] })).status).toBe(200);
  expect((await read()).articles.map((article) => article.title)).toEqual(['Second', 'First', 'Third']);
  expect((await update({ disconnect: [articles[0]] })).status).toBe(200);
  expect((await read()).articles.map((article) => article.title)).toEqual(['Second', 'Third']);
  expect((await update({ set: [articles[0]] })).status).toBe(200);
  expect((await read()).articles.map((article) => article.title)).toEqual(['First']);

  const missing = await update(['nope']);
  expect(missing.status).toBe(400);
  expect((missing.body.error as Json).message).toBe('Document with id "nope", locale "en" not found');
  expect((await read()).articles.map((article) => article.title)).toEqual(['First']);
});

test('the relations of all zone entries of a list are one store query, whatever the number of pages', async () => {
  for (const index of [1, 2, 3, 4, 5]) await rest('POST', '/api/pages', { data: { title: `Batch ${index}`, slug: `batch-${index}`, blocks: blocksOf(articles) } });
  calls.reset();
  const answer = await server.gql<{ pages: Array<{ blocks: Array<{ articles?: Json[] }> }> }>(
    '{ pages(filters: { title: { startsWith: "Batch" } }) { blocks { ... on ComponentBlocksRelatedArticles { articles { title } } } } }',
    {},
    server.asAdmin,
  );
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data!.pages).toHaveLength(5);
  expect(answer.body.data!.pages.every((page) => page.blocks[0].articles!.length === 3)).toBe(true);
  expect(calls.of('articles')).toBe(1);

  // every block populated with all its to-many relations, on REST's default page of 25: maxCost counts the
  // answer as it is built, not an estimate of every relation holding maxLimit rows (~277,000)
  calls.reset();
  const populated = await rest('GET', '/api/pages?filters[title][$startsWith]=Batch&populate[blocks][populate]=*');
  expect(populated.status).toBe(200);
  expect((populated.body.data as Array<{ blocks: Array<{ articles?: Json[] }> }>).map((page) => page.blocks[0].articles!.length)).toEqual([3, 3, 3, 3, 3]);
  expect(calls.of('articles')).toBe(1);
});

test("numeric ids stand for their documents, as in Strapi's short and long hand, in a zone entry and on the document itself", async () => {
  const ids = await Promise.all(
    articles.map(async (documentId) => ((await rest('GET', `/api/articles/${documentId}`)).body.data as { id: number }).id),
  );
  const created = await rest('POST', '/api/pages', { data: { title: 'By id', slug: 'by-id', blocks: [{ __component: 'blocks.related-articles', articles: [ids[2], { id: ids[0] }] }] } });
  expect(created.status).toBe(201);
  const { documentId } = created.body.data as { documentId: string };
  const read = await rest('GET', `/api/pages/${documentId}?populate[blocks][on][blocks.related-articles][populate][articles][fields][0]=title`);
  expect((read.body.data as { blocks: Array<{ articles: Json[] }> }).blocks[0].articles.map((article) => article.title)).toEqual(['Third', 'First']);

  const categoryId = ((await rest('POST', '/api/categories', { data: { name: 'Pasta', slug: 'pasta' } })).body.data as { id: number; documentId: string });
  const article = await rest('PUT', `/api/articles/${articles[0]}?populate=category`, { data: { category: { connect: [{ id: categoryId.id }] } } });
  expect(article.status).toBe(200);
  expect(((article.body.data as { category: Json }).category).documentId).toBe(categoryId.documentId);

  const missing = await rest('POST', '/api/pages', { data: { title: 'No id', blocks: [{ __component: 'blocks.related-articles', articles: [999999] }] } });
  expect(missing.status).toBe(400);
  expect((missing.body.error as { details: { errors: Json[] } }).details.errors).toEqual([
    { path: ['blocks', '0', 'articles'], message: 'blocks[0].articles names no document with id 999999', name: 'ValidationError', value: [999999] },
  ]);
});

test("a file's related documents, as Strapi's UploadFile.related: those holding it in their own media fields and in their zone entries' components", async () => {
  const [file] = await uploaded(server, [{ name: 'c.png', content: png(8, 8), type: 'image/png' }]);
  const article = await rest('POST', '/api/articles', { data: { title: 'Pictured', ckeditor_content: '<p>x</p>', image: file.id } });
  expect(article.status).toBe(201);
  const page = await rest('POST', '/api/pages', { data: { title: 'Card page', slug: 'card-page', blocks: [{ __component: 'blocks.features', cards: [{ title: 'c', image: file.id }] }] } });
  expect(page.status).toBe(201);
  const answer = await server.gql<{ uploadFile: { related: Json[] } }>(
    'query($id: ID!) { uploadFile(documentId: $id) { related { __typename ... on Article { title } ... on Page { title } } } }',
    { id: file.documentId },
    server.asAdmin,
  );
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data!.uploadFile.related).toEqual(expect.arrayContaining([{ __typename: 'Article', title: 'Pictured' }, { __typename: 'Page', title: 'Card page' }]));
  expect(answer.body.data!.uploadFile.related).toHaveLength(2);
});
