import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../src/config/defaults';
import { loadModels } from '../../src/models/load-models';
import { openStore } from '../../src/storage/open-store';
import type { Collection, Store } from '../../src/storage/types';
import { createFolio, type Folio } from '../../src/app/create-folio';
import { listen, type RunningServer } from '../../src/server/http-server';
import { EXAMPLE_SCHEMA, FULL_ACCESS_TOKEN } from '../support/test-server';

/**
 * Counts calls on the content's collections, to prove relation loading is batched. Folio's own
 * collections are left out: users-permissions reads roles and the webhook worker polls its outbox
 * (`folio_deliveries`) in the background, at times that can fall inside the measured request.
 */
const countingStore = (store: Store, counter: { calls: number }): Store => ({
  ...store,
  engine: store.engine,
  collection: (name: string): Collection => {
    const collection = store.collection(name);
    return new Proxy(collection, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (!name.startsWith('up_') && !name.startsWith('folio_')) counter.calls += 1;
          return (value as (...inner: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  },
  nextSequence: (name) => store.nextSequence(name),
  transaction: (work) => store.transaction(work),
  listCollections: () => store.listCollections(),
  ping: () => store.ping(),
  close: () => store.close(),
});

let root: string;
let store: Store;
let running: RunningServer;
let folio: Folio;
const counter = { calls: 0 };
const admin = { authorization: `Bearer ${FULL_ACCESS_TOKEN}` };

const gql = async <T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = admin) => {
  const response = await fetch(`${running.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
};

const ok = async <T>(query: string, variables: Record<string, unknown> = {}, headers?: Record<string, string>): Promise<T> => {
  const result = await gql<T>(query, variables, headers);
  expect(result.errors).toBeUndefined();
  return result.data as T;
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-relations-'));
  const config = defaultConfig('test');
  config.i18n = { locales: ['en', 'fr'], defaultLocale: 'en' };
  config.admin.apiTokens = [{ name: 'admin', type: 'full-access', accessKey: FULL_ACCESS_TOKEN }];
  config.usersPermissions.roles = {
    public: { permissions: ['api::article.article.find', 'api::category.category.find', 'api::tag.tag.find', 'api::author.author.find'] },
  };
  store = await openStore(config.database, join(root, 'data'));
  folio = await createFolio({ models: loadModels(EXAMPLE_SCHEMA), config, store: countingStore(store, counter), dataDir: join(root, 'data') });
  running = await listen(folio, '127.0.0.1', 0);
});

afterAll(async () => {
  await running.close();
  await folio.stop();
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

const create = async (type: 'Category' | 'Tag' | 'Author', name: string): Promise<string> => {
  const data = await ok<Record<string, { documentId: string }>>(`mutation($n: String!) { create${type}(data: { name: $n }) { documentId } }`, { n: name });
  return data[`create${type}`].documentId;
};

describe('relation loading is batched per request', () => {
  test('50 articles with category, tags and author cost a constant number of store calls', async () => {
    const category = await create('Category', 'Batch');
    const author = await create('Author', 'Ann');
    const tags = [await create('Tag', 'b1'), await create('Tag', 'b2'), await create('Tag', 'b3')];
    for (let index = 0; index < 50; index += 1) {
      await ok('mutation($d: ArticleInput!) { createArticle(data: $d) { documentId } }', {
        d: { title: `batched ${index}`, category, author, tags },
      });
    }
    const query = '{ articles(filters: { title: { startsWith: "batched" } }, pagination: { pageSize: 50 }) { title category { name } tags { name } author { name } } }';
    counter.calls = 0;
    const data = await ok<{ articles: Array<{ category: { name: string }; tags: unknown[]; author: { name: string } }> }>(query, {}, {});
    expect(data.articles).toHaveLength(50);
    expect(data.articles.every((article) => article.category.name === 'Batch' && article.tags.length === 3 && article.author.name === 'Ann')).toBe(true);
    // one query for the articles, one per relation field
    expect(counter.calls).toBe(4);
  });
});

describe('look-ahead loading answers exactly as field-by-field loading', () => {
  // Query resolvers load the selected relations ahead of their fields; mutation results do not:
  // the same selection through both must agree, down nested, inverse, aliased and fragment fields.
  const selection = `
    fragment TagFields on Tag { name articles(sort: "title:asc") { title } }
    fragment Article on Article {
      title
      category { name articles(sort: "title:desc", pagination: { limit: 2 }) { title category { name } } }
      byName: tags(sort: "name:asc") { ...TagFields }
      byNameDesc: tags(sort: "name:desc") { name }
      tags_connection(pagination: { limit: 2 }, sort: "name:asc") { nodes { name } }
      author @include(if: $withAuthor) { name articles(pagination: { limit: 1 }, sort: "title:asc") { title } }
    }`;

  test('nested, inverse, aliased, fragment, connection and @include fields', async () => {
    const category = await create('Category', 'Ahead');
    const author = await create('Author', 'Ahead author');
    const tags = [await create('Tag', 'ahead-c'), await create('Tag', 'ahead-a'), await create('Tag', 'ahead-b')];
    const ids: string[] = [];
    for (const [index, title] of ['ahead one', 'ahead two', 'ahead three'].entries()) {
      const data = await ok<{ createArticle: { documentId: string } }>('mutation($d: ArticleInput!) { createArticle(data: $d) { documentId } }', {
        d: { title, category, author, tags: tags.slice(0, index + 1) },
      });
      ids.push(data.createArticle.documentId);
    }
    for (const withAuthor of [true, false]) {
      const listed = await ok<{ articles: unknown[] }>(`query($withAuthor: Boolean!) { articles(filters: { title: { startsWith: "ahead" } }, sort: "title:asc") { ...Article } } ${selection}`, { withAuthor });
      const one = await ok<{ article: unknown }>(`query($id: ID!, $withAuthor: Boolean!) { article(documentId: $id) { ...Article } } ${selection}`, { id: ids[2], withAuthor });
      const connection = await ok<{ articles_connection: { nodes: unknown[] } }>(
        `query($withAuthor: Boolean!) { articles_connection(filters: { title: { startsWith: "ahead" } }, sort: "title:asc") { nodes { ...Article } } } ${selection}`,
        { withAuthor },
      );
      const written = await ok<{ updateArticle: unknown }>(`mutation($id: ID!, $withAuthor: Boolean!) { updateArticle(documentId: $id, data: {}) { ...Article } } ${selection}`, { id: ids[2], withAuthor });
      expect(one.article).toEqual(written.updateArticle);
      expect(listed.articles).toEqual(connection.articles_connection.nodes);
      // sorted by title: one, three, two
      expect(listed.articles[1]).toEqual(written.updateArticle);
    }
    const three = (await ok<{ article: Record<string, unknown> }>(`query($id: ID!, $withAuthor: Boolean!) { article(documentId: $id) { ...Article } } ${selection}`, { id: ids[2], withAuthor: true })).article;
    expect(three).toMatchObject({
      byName: [{ name: 'ahead-a' }, { name: 'ahead-b' }, { name: 'ahead-c' }],
      byNameDesc: [{ name: 'ahead-c' }, { name: 'ahead-b' }, { name: 'ahead-a' }],
      tags_connection: { nodes: [{ name: 'ahead-a' }, { name: 'ahead-b' }] },
      category: { name: 'Ahead', articles: [{ title: 'ahead two', category: { name: 'Ahead' } }, { title: 'ahead three', category: { name: 'Ahead' } }] },
      author: { name: 'Ahead author', articles: [{ title: 'ahead one' }] },
    });
    const byName = three.byName as Array<{ articles: unknown[] }>;
    expect(byName[0].articles).toEqual([{ title: 'ahead three' }, { title: 'ahead two' }]);
    expect(byName[2].articles).toEqual([{ title: 'ahead one' }, { title: 'ahead three' }, { title: 'ahead two' }]);
  });

  test('an error in a nested relation\'s arguments is reported at that field\'s path', async () => {
    const result = await gql('{ articles(filters: { title: { startsWith: "ahead" } }, sort: "title:asc") { title category { articles(sort: "nope:asc") { title } } } }');
    expect(result.errors?.[0]).toMatchObject({ path: ['articles', 0, 'category', 'articles'], extensions: { code: 'BAD_USER_INPUT' } });
  });

  test('nested lists stay a constant number of store calls', async () => {
    counter.calls = 0;
    const data = await ok<{ articles: Array<{ category: { articles: unknown[] } }> }>(
      '{ articles(filters: { title: { startsWith: "batched" } }, pagination: { pageSize: 50 }) { category { articles(pagination: { limit: 3 }) { title tags { name } } } } }',
      {},
      {},
    );
    expect(data.articles).toHaveLength(50);
    expect(data.articles.every((article) => article.category.articles.length === 3)).toBe(true);
    // articles, their category, its articles, their tags
    expect(counter.calls).toBe(4);
  });
});

describe('writing relations', () => {
  test("Strapi's [ID] in data; connect with positions, disconnect, set through the relations argument; the inverse side follows", async () => {
    const [a, b, c, d] = [await create('Tag', 'pa'), await create('Tag', 'pb'), await create('Tag', 'pc'), await create('Tag', 'pd')];
    const created = await ok<{ createArticle: { documentId: string; tags: Array<{ name: string }> } }>(
      'mutation($t: [ID]) { createArticle(data: { title: "positions", tags: $t }) { documentId tags { name } } }',
      { t: [a, b] },
    );
    const id = created.createArticle.documentId;
    expect(created.createArticle.tags.map((tag) => tag.name)).toEqual(['pa', 'pb']);

    const update = (tags: unknown) =>
      ok<{ updateArticle: { tags: Array<{ name: string }> } }>(
        'mutation($id: ID!, $t: RelationInput) { updateArticle(documentId: $id, data: {}, relations: [{ path: ["tags"], value: $t }]) { tags { name } } }',
        { id, t: tags },
      ).then((data) => data.updateArticle.tags.map((tag) => tag.name));

    expect(await update({ connect: [{ documentId: c, position: { before: b } }] })).toEqual(['pa', 'pc', 'pb']);
    expect(await update({ connect: [{ documentId: d, position: { start: true } }] })).toEqual(['pd', 'pa', 'pc', 'pb']);
    expect(await update({ connect: [{ documentId: d, position: { after: b } }] })).toEqual(['pa', 'pc', 'pb', 'pd']);
    expect(await update({ disconnect: [a, c] })).toEqual(['pb', 'pd']);
    expect(await update({ set: [c] })).toEqual(['pc']);

    const tag = await ok<{ tag: { articles: Array<{ title: string }> } }>('query($id: ID!) { tag(documentId: $id) { articles { title } } }', { id: c });
    expect(tag.tag.articles).toEqual([{ title: 'positions' }]);
  });

  test('writing through the inverse side updates the owning documents', async () => {
    const article = await ok<{ createArticle: { documentId: string } }>('mutation { createArticle(data: { title: "inverse" }) { documentId } }');
    const id = article.createArticle.documentId;
    const category = await ok<{ createCategory: { documentId: string; articles: Array<{ title: string }> } }>(
      'mutation($a: [ID]) { createCategory(data: { name: "Inverse", articles: $a }) { documentId articles { title } } }',
      { a: [id] },
    );
    expect(category.createCategory.articles).toEqual([{ title: 'inverse' }]);
    const read = await ok<{ article: { category: { name: string } } }>('query($id: ID!) { article(documentId: $id) { category { name } } }', { id });
    expect(read.article.category).toEqual({ name: 'Inverse' });
  });

  test('a documentId that does not exist writes nothing', async () => {
    const result = await gql('mutation { createArticle(data: { title: "dangling", tags: ["missing-one"] }) { documentId } }');
    expect(result.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
    const list = await ok<{ articles: unknown[] }>('{ articles(status: DRAFT, filters: { title: { eq: "dangling" } }) { title } }');
    expect(list.articles).toEqual([]);
  });

  test('a published article never shows draft relations; deep filters and relation arguments', async () => {
    const category = await create('Category', 'Deep');
    await ok('mutation($c: ID) { createArticle(data: { title: "deep published", category: $c }) { documentId } }', { c: category });
    await ok('mutation($c: ID) { createArticle(status: DRAFT, data: { title: "deep draft", category: $c }) { documentId } }', { c: category });
    const read = await ok<{ categories: Array<{ articles: Array<{ title: string }> }> }>(
      '{ categories(filters: { name: { eq: "Deep" } }) { articles(sort: "title:desc") { title } } }',
      {},
      {},
    );
    expect(read.categories[0].articles).toEqual([{ title: 'deep published' }]);

    const deep = await ok<{ articles: Array<{ title: string }> }>(
      '{ articles(filters: { category: { name: { eq: "Deep" } } }) { title } }',
      {},
      {},
    );
    expect(deep.articles).toEqual([{ title: 'deep published' }]);
    const inverse = await ok<{ categories: Array<{ name: string }> }>(
      '{ categories(filters: { articles: { title: { eq: "deep published" } } }) { name } }',
      {},
      {},
    );
    expect(inverse.categories).toEqual([{ name: 'Deep' }]);
  });
});

describe('components and dynamic zones', () => {
  test('dynamic zones are written with __typename or __component and read with fragments', async () => {
    const created = await ok<{ createArticle: { sections: unknown[] } }>(
      `mutation($s: [ArticleSectionsDynamicZoneInput!]) {
        createArticle(data: { title: "zones", sections: $s }) {
          sections { __typename ... on ComponentSharedQuote { text source } ... on ComponentSharedRichText { body } }
        }
      }`,
      { s: [{ __typename: 'ComponentSharedQuote', text: 'To be', source: 'W.' }, { __component: 'shared.rich-text', body: '# Hi' }] },
    );
    expect(created.createArticle.sections).toEqual([
      { __typename: 'ComponentSharedQuote', text: 'To be', source: 'W.' },
      { __typename: 'ComponentSharedRichText', body: '# Hi' },
    ]);
    const bad = await gql('mutation { createArticle(data: { title: "bad zone", sections: [{ __component: "shared.seo", metaTitle: "x" }] }) { documentId } }');
    expect(bad.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
    const badField = await gql('mutation { createArticle(data: { title: "bad zone", sections: [{ __component: "shared.quote", text: 5 }] }) { documentId } }');
    expect(badField.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
  });

  test('components filter through their own FiltersInput, repeatable ones per item', async () => {
    await ok('mutation { createArticle(data: { title: "seo one", seo: { metaTitle: "First", keywords: [{ value: "alpha" }, { value: "beta" }] } }) { documentId } }');
    await ok('mutation { createArticle(data: { title: "seo two", seo: { metaTitle: "Second", keywords: [{ value: "gamma" }] } }) { documentId } }');
    const byTitle = await ok<{ articles: Array<{ title: string }> }>('{ articles(filters: { seo: { metaTitle: { eq: "Second" } } }) { title } }', {}, {});
    expect(byTitle.articles).toEqual([{ title: 'seo two' }]);
    const byKeyword = await ok<{ articles: Array<{ title: string; seo: { keywords: Array<{ value: string }> } }> }>(
      '{ articles(filters: { seo: { keywords: { value: { eq: "beta" } } } }) { title seo { keywords(sort: "value:desc") { value } } } }',
      {},
      {},
    );
    expect(byKeyword.articles).toEqual([{ title: 'seo one', seo: { keywords: [{ value: 'beta' }, { value: 'alpha' }] } }]);
  });
});
