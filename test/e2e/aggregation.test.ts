import { defaultPlugins, startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';
import { restClient, type RestClient } from '../rest/rest-client';

/**
 * Aggregation on both surfaces (issue 36): `aggregate` and `groupBy` on every `_connection`, REST's
 * `aggregate[…]` and `groupBy[…]` on the list route. Every expected value is computed here from the
 * articles this test wrote. Runs on the embedded store and on MongoDB (test:mongodb).
 */

interface Seeded {
  documentId: string;
  title: string;
  views: number | null;
  rating: number | null;
  big: string;
  publishDate: string;
  kind: string;
  featured: boolean;
  category: string | null;
  score: number;
  published: boolean;
}

let schema: SchemaCopy;
let server: TestServer;
let api: RestClient;
const categories: string[] = [];
const seeded: Seeded[] = [];
const KINDS = ['news', 'tutorial', 'opinion'];

const gql = async <T>(query: string, variables: Record<string, unknown> = {}, headers = server.asAdmin): Promise<T> => {
  const answer = await server.gql<T>(query, variables, headers);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data as T;
};

beforeAll(async () => {
  schema = copyExampleSchema();
  schema.writeComponent('shared.stats', { score: { type: 'integer' } });
  schema.editContentType('article', (model) => {
    model.attributes.big = { type: 'biginteger' };
    model.attributes.secret = { type: 'integer', private: true };
    model.attributes.stats = { type: 'component', repeatable: false, component: 'shared.stats' };
  });
  server = await startTestServer({ schemaDir: schema.schemaDir });
  api = restClient(server);
  for (const name of ['agg-a', 'agg-b', 'agg-c']) {
    categories.push((await gql<{ createCategory: { documentId: string } }>('mutation($n: String) { createCategory(data: { name: $n }) { documentId } }', { n: name })).createCategory.documentId);
  }
  for (let index = 0; index < 24; index++) {
    const article = {
      title: `agg ${index}`,
      views: index % 5 === 4 ? null : (index * 17) % 60,
      rating: index % 3 === 0 ? null : Math.round(index * 1.7 * 10) / 10,
      big: `${index % 2 ? '-' : ''}${9_000_000_000_000n + BigInt(index)}`,
      publishDate: `2024-${String((index % 12) + 1).padStart(2, '0')}-0${(index % 9) + 1}`,
      // not a function of the category (index % 3): every category meets every kind
      kind: KINDS[Math.floor(index / 4) % 3],
      featured: index % 4 === 0,
      category: index % 7 === 6 ? null : categories[index % 3],
      score: index % 6,
      published: index % 5 !== 1,
    };
    const data = {
      title: article.title,
      views: article.views,
      rating: article.rating,
      big: article.big,
      publishDate: article.publishDate,
      kind: article.kind,
      featured: article.featured,
      category: article.category,
      secret: index,
      stats: { score: article.score },
    };
    const created = await gql<{ createArticle: { documentId: string } }>('mutation($d: ArticleInput!, $s: PublicationStatus) { createArticle(data: $d, status: $s) { documentId } }', {
      d: data,
      s: article.published ? 'PUBLISHED' : 'DRAFT',
    });
    seeded.push({ ...article, documentId: created.createArticle.documentId });
  }
});
afterAll(async () => {
  await server.stop();
  schema.remove();
});

const numbers = (values: Array<number | null>): number[] => values.filter((value): value is number => value !== null);
const sumOf = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0));
const expected = (articles: Seeded[]) => {
  const views = numbers(articles.map((article) => article.views));
  const ratings = numbers(articles.map((article) => article.rating));
  const dates = articles.map((article) => article.publishDate).sort();
  const bigs = articles.map((article) => BigInt(article.big)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    count: articles.length,
    sum: { views: sumOf(views), rating: sumOf(ratings), big: articles.length ? bigs.reduce((a, b) => a + b, 0n).toString() : null, stats_score: sumOf(articles.map((a) => a.score)) },
    avg: { views: views.length ? sumOf(views)! / views.length : null },
    min: { views: views.length ? Math.min(...views) : null, publishDate: dates[0] ?? null, big: bigs.length ? bigs[0].toString() : null },
    max: { views: views.length ? Math.max(...views) : null, publishDate: dates[dates.length - 1] ?? null, big: bigs.length ? bigs[bigs.length - 1].toString() : null },
  };
};
const published = () => seeded.filter((article) => article.published);

/** The order of group keys: null first, then as text (documentIds and enumeration values are ASCII). */
const compareKeys = (a: string | null, b: string | null): number => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** The (category, kind) combinations of `articles`, with their documents, in the default order: category, then kind ascending. */
const combinations = (articles: Seeded[]) => {
  const found = new Map<string, { category: string | null; kind: string; members: Seeded[] }>();
  for (const article of articles) {
    const name = `${article.category}|${article.kind}`;
    if (!found.has(name)) found.set(name, { category: article.category, kind: article.kind, members: [] });
    found.get(name)!.members.push(article);
  }
  return [...found.values()].sort((a, b) => compareKeys(a.category, b.category) || compareKeys(a.kind, b.kind));
};
/** `sort=count:desc`, then the default order (a stable sort keeps it among equal counts). */
const byCountDesc = <T extends { members: Seeded[] }>(groups: T[]): T[] => [...groups].sort((a, b) => b.members.length - a.members.length);

const AGGREGATE = `aggregate {
  count
  sum { views rating big stats_score }
  avg { views }
  min { views publishDate big }
  max { views publishDate big }
}`;

/** avg compared to 9 digits; the rest exactly */
const expectAggregate = (actual: ReturnType<typeof expected>, wanted: ReturnType<typeof expected>): void => {
  expect({ ...actual, avg: undefined, sum: { ...actual.sum, rating: undefined } }).toEqual({ ...wanted, avg: undefined, sum: { ...wanted.sum, rating: undefined } });
  if (wanted.avg.views === null) expect(actual.avg.views).toBeNull();
  else expect(actual.avg.views).toBeCloseTo(wanted.avg.views, 9);
  if (wanted.sum.rating === null) expect(actual.sum.rating).toBeNull();
  else expect(actual.sum.rating).toBeCloseTo(wanted.sum.rating, 9);
};

const FILTER = '{ title: { startsWith: "agg " } }';

describe('GraphQL', () => {
  test('aggregate over the connection\'s filters and status, pagination ignored', async () => {
    const data = await gql<{ articles_connection: { aggregate: ReturnType<typeof expected>; nodes: unknown[] } }>(
      `{ articles_connection(filters: ${FILTER}, pagination: { pageSize: 2 }) { nodes { documentId } ${AGGREGATE} } }`,
    );
    expect(data.articles_connection.nodes).toHaveLength(2);
    expectAggregate(data.articles_connection.aggregate, expected(published()));
  });

  test('a filter narrows it; a draft status counts the drafts', async () => {
    const data = await gql<{ articles_connection: { aggregate: ReturnType<typeof expected> } }>(
      `{ articles_connection(filters: { and: [${FILTER}, { views: { gt: 20 } }] }) { ${AGGREGATE} } }`,
    );
    expectAggregate(data.articles_connection.aggregate, expected(published().filter((article) => article.views !== null && article.views > 20)));
    const drafts = await gql<{ articles_connection: { aggregate: { count: number } } }>(`{ articles_connection(filters: ${FILTER}, status: DRAFT) { aggregate { count } } }`);
    expect(drafts.articles_connection.aggregate.count).toBe(seeded.length);
    const none = await gql<{ articles_connection: { aggregate: ReturnType<typeof expected> } }>(`{ articles_connection(filters: { title: { eq: "none" } }) { ${AGGREGATE} } }`);
    expectAggregate(none.articles_connection.aggregate, expected([]));
  });

  test('groupBy a to-one relation: one entry per category (null for none), each with its documents and aggregate', async () => {
    const data = await gql<{ articles_connection: { groupBy: { category: Array<{ key: string | null; connection: { aggregate: ReturnType<typeof expected>; nodes: Array<{ documentId: string }>; pageInfo: { total: number } } }> } } }>(
      `{ articles_connection(filters: ${FILTER}) { groupBy { category(pagination: { limit: 10 }) { key connection(pagination: { limit: 50 }) { nodes { documentId } pageInfo { total } ${AGGREGATE} } } } } }`,
    );
    const groups = data.articles_connection.groupBy.category;
    const keys = [...new Set(published().map((article) => article.category))].sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : 1));
    expect(groups.map((group) => group.key)).toEqual(keys);
    for (const group of groups) {
      const members = published().filter((article) => article.category === group.key);
      expectAggregate(group.connection.aggregate, expected(members));
      expect(group.connection.nodes.map((node) => node.documentId).sort()).toEqual(members.map((member) => member.documentId).sort());
      expect(group.connection.pageInfo.total).toBe(members.length);
    }
  });

  test('groups sorted by an aggregate and paginated; booleans and enumerations group by their text', async () => {
    const data = await gql<{ articles_connection: { groupBy: { kind: Array<{ key: string; connection: { aggregate: { count: number; sum: { views: number } } } }>; featured: Array<{ key: string; connection: { aggregate: { count: number } } }> } } }>(
      `{ articles_connection(filters: ${FILTER}) { groupBy {
        kind(sort: ["sum.views:desc"]) { key connection { aggregate { count sum { views } } } }
        featured(sort: "count:desc", pagination: { limit: 1 }) { key connection { aggregate { count } } }
      } } }`,
    );
    const byKind = KINDS.map((kind) => ({ key: kind, members: published().filter((article) => article.kind === kind) }))
      .map(({ key, members }) => ({ key, connection: { aggregate: { count: members.length, sum: { views: sumOf(numbers(members.map((member) => member.views))) } } } }))
      .sort((a, b) => (b.connection.aggregate.sum.views ?? -1) - (a.connection.aggregate.sum.views ?? -1) || (a.key < b.key ? -1 : 1));
    expect(data.articles_connection.groupBy.kind).toEqual(byKind);
    const featured = [true, false].map((flag) => ({ key: String(flag), count: published().filter((article) => article.featured === flag).length })).sort((a, b) => b.count - a.count);
    expect(data.articles_connection.groupBy.featured).toEqual([{ key: featured[0].key, connection: { aggregate: { count: featured[0].count } } }]);
  });

  test('groups(by:) several attributes: one entry per combination, keyed by attribute, sorted by count and paged in one list', async () => {
    type Combination = { key: { category: string | null; kind: string | null; featured: string | null }; connection: { nodes: Array<{ documentId: string }>; aggregate: { count: number; sum: { views: number | null } } } };
    const query = `query($page: Int) { articles_connection(filters: ${FILTER}) {
      groups(by: [category, kind], sort: ["count:desc"], pagination: { page: $page, pageSize: 4 }) {
        key { category kind featured } connection(pagination: { limit: 50 }) { nodes { documentId } aggregate { count sum { views } } }
      }
    } }`;
    const all = byCountDesc(combinations(published()));
    expect(all.length).toBeGreaterThan(8);
    // the seed gives some combinations more documents than others: count:desc is a real order
    expect(new Set(all.map((group) => group.members.length)).size).toBeGreaterThan(1);
    const pages: Combination[] = [];
    for (let page = 1; page <= Math.ceil(all.length / 4) + 1; page++) {
      const data = await gql<{ articles_connection: { groups: Combination[] } }>(query, { page });
      expect(data.articles_connection.groups.length).toBe(Math.max(0, Math.min(4, all.length - (page - 1) * 4)));
      pages.push(...data.articles_connection.groups);
    }
    expect(pages.map((group) => group.key)).toEqual(all.map(({ category, kind }) => ({ category, kind, featured: null })));
    pages.forEach((group, index) => {
      const { members } = all[index];
      expect(group.connection.aggregate).toEqual({ count: members.length, sum: { views: sumOf(numbers(members.map((member) => member.views))) } });
      expect(group.connection.nodes.map((node) => node.documentId).sort()).toEqual(members.map((member) => member.documentId).sort());
    });
  });

  test('groups(by:) sorted by an attribute of by and by an aggregate; a sort key outside by is BAD_USER_INPUT', async () => {
    const data = await gql<{ articles_connection: { byKind: Array<{ key: { kind: string; category: string | null } }>; bySum: Array<{ key: { kind: string; category: string | null }; connection: { aggregate: { sum: { views: number | null } } } }> } }>(
      `{ articles_connection(filters: ${FILTER}) {
        byKind: groups(by: [kind, category], sort: "kind:desc", pagination: { limit: 100 }) { key { kind category } }
        bySum: groups(by: [kind, category], sort: ["sum.views:desc"], pagination: { limit: 100 }) { key { kind category } connection { aggregate { sum { views } } } }
      } }`,
    );
    const groups = combinations(published()).sort((a, b) => compareKeys(a.kind, b.kind) || compareKeys(a.category, b.category));
    expect(data.articles_connection.byKind.map((group) => group.key)).toEqual(
      [...groups].sort((a, b) => compareKeys(b.kind, a.kind) || compareKeys(a.category, b.category)).map(({ kind, category }) => ({ kind, category })),
    );
    const sums = groups.map(({ kind, category, members }) => ({ key: { kind, category }, connection: { aggregate: { sum: { views: sumOf(numbers(members.map((member) => member.views))) } } } }));
    // nulls last when descending (null is the least value), ties by kind then category
    expect(data.articles_connection.bySum).toEqual([...sums].sort((a, b) => (b.connection.aggregate.sum.views ?? -Infinity) - (a.connection.aggregate.sum.views ?? -Infinity)));
    const bad = await server.gql(`{ articles_connection { groups(by: [kind, category], sort: "featured:asc") { key { kind } } } }`, {}, server.asAdmin);
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.body.errors?.[0].message).toMatch(/featured.*an attribute of by/);
    const none = await server.gql(`{ articles_connection { groups(by: []) { key { kind } } } }`, {}, server.asAdmin);
    expect(none.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const toMany = await server.gql(`{ articles_connection { groups(by: [kind, tags]) { key { kind } } } }`, {}, server.asAdmin);
    expect(toMany.status).toBe(400);
    expect(JSON.stringify(toMany.body.errors)).toMatch(/tags/);
  });

  test('private attributes are not in the schema; a bad group sort is BAD_USER_INPUT', async () => {
    const privateSum = await server.gql('{ articles_connection { aggregate { sum { secret } } } }', {}, server.asAdmin);
    expect(privateSum.status).toBe(400);
    expect(JSON.stringify(privateSum.body.errors)).toMatch(/secret/);
    const badSort = await server.gql('{ articles_connection { groupBy { kind(sort: "sum.title:asc") { key } } } }', {}, server.asAdmin);
    expect(badSort.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(badSort.body.errors?.[0].message).toMatch(/sum\.title/);
  });

  test('the Public role aggregates what it may find, and groups by a relation only to a type it may read', async () => {
    const anonymous = await server.gql<{ articles_connection: { aggregate: { count: number } } }>(`{ articles_connection(filters: ${FILTER}) { aggregate { count } } }`, {}, {});
    expect(anonymous.body.data?.articles_connection.aggregate.count).toBe(published().length);
  });
});



describe('REST', () => {
  const ALL = 'aggregate[count]=*&aggregate[sum][0]=views&aggregate[sum][1]=big&aggregate[sum][2]=stats_score&aggregate[avg][0]=views&aggregate[min][0]=views&aggregate[min][1]=publishDate&aggregate[max][0]=views&aggregate[max][1]=big';
  const restExpected = (articles: Seeded[]) => {
    const all = expected(articles);
    return {
      count: all.count,
      sum: { views: all.sum.views, big: all.sum.big, stats_score: all.sum.stats_score },
      avg: { views: all.avg.views },
      min: { views: all.min.views, publishDate: all.min.publishDate },
      max: { views: all.max.views, big: all.max.big },
    };
  };
  const expectEntry = (actual: ReturnType<typeof restExpected>, wanted: ReturnType<typeof restExpected>): void => {
    expect({ ...actual, avg: undefined }).toEqual({ ...wanted, avg: undefined });
    if (wanted.avg.views === null) expect(actual.avg.views).toBeNull();
    else expect(actual.avg.views).toBeCloseTo(wanted.avg.views, 9);
  };

  test('the issue\'s request: filters, every aggregate, groupBy a relation, one entry per group', async () => {
    const { status, body } = await api.get(`/api/articles?filters[title][$startsWith]=agg&filters[views][$gt]=10&${ALL}&groupBy[0]=category`);
    expect(status).toBe(200);
    expect(body.meta).toEqual({});
    const matches = published().filter((article) => article.views !== null && article.views > 10);
    const keys = [...new Set(matches.map((article) => article.category))].sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : 1));
    expect(body.data.map((entry: { group: unknown }) => entry.group)).toEqual(keys.map((category) => ({ category })));
    for (const { group, ...values } of body.data) expectEntry(values, restExpected(matches.filter((article) => article.category === group.category)));
  });

  test('without groupBy: one entry with an empty group; status applies as for the list', async () => {
    const { body } = await api.get(`/api/articles?filters[title][$startsWith]=agg&${ALL}`);
    expect(body.data).toHaveLength(1);
    expect(body.data[0].group).toEqual({});
    const { group: _, ...values } = body.data[0];
    expectEntry(values, restExpected(published()));
    const drafts = await api.get('/api/articles?filters[title][$startsWith]=agg&status=draft&aggregate[count]=*');
    expect(drafts.body.data).toEqual([{ group: {}, count: seeded.length }]);
  });

  test('_q narrows the aggregation as it narrows the list (the REST front\'s search per type)', async () => {
    const matches = published().filter((article) => article.title.toLowerCase().includes('agg 1'));
    const { body } = await api.get('/api/articles?_q=AGG%201&aggregate[count]=*&groupBy[0]=kind&groupBy[1]=featured&pagination[pageSize]=100');
    const groups = [...new Map(matches.map((article) => [`${article.kind}|${article.featured}`, { kind: article.kind, featured: article.featured }])).values()]
      .sort((a, b) => compareKeys(a.kind, b.kind) || Number(a.featured) - Number(b.featured))
      .map((group) => ({ group, count: matches.filter((article) => article.kind === group.kind && article.featured === group.featured).length }));
    expect(body.data).toEqual(groups);
    const list = await api.get('/api/articles?_q=AGG%201&pagination[pageSize]=100');
    expect(list.body.meta.pagination.total).toBe(matches.length);
  });

  test('groups ordered by sort naming an aggregate and paginated; typed keys', async () => {
    const { body } = await api.get('/api/articles?filters[title][$startsWith]=agg&aggregate[count]=*&groupBy=featured&sort=count:desc&pagination[pageSize]=1');
    const counts = [true, false].map((featured) => ({ group: { featured }, count: published().filter((article) => article.featured === featured).length })).sort((a, b) => b.count - a.count);
    expect(body.data).toEqual(counts.slice(0, 1));
    const second = await api.get('/api/articles?filters[title][$startsWith]=agg&aggregate[count]=*&groupBy=featured&sort=count:desc&pagination[page]=2&pagination[pageSize]=1');
    expect(second.body.data).toEqual(counts.slice(1, 2));
  });

  test('groupBy two attributes (a relation and an enumeration): one entry per combination, sorted by count and paged over the flat list', async () => {
    const base = '/api/articles?filters[title][$startsWith]=agg&aggregate[count]=*&aggregate[sum][0]=views&groupBy[0]=category&groupBy[1]=kind&sort=count:desc';
    const all = byCountDesc(combinations(published())).map(({ category, kind, members }) => ({
      group: { category, kind },
      count: members.length,
      sum: { views: sumOf(numbers(members.map((member) => member.views))) },
    }));
    const whole = await api.get(`${base}&pagination[pageSize]=100`);
    expect(whole.status).toBe(200);
    expect(whole.body).toEqual({ data: all, meta: {} });
    // pages of 5 cut through the list of combinations, not through categories
    for (let page = 1; page <= Math.ceil(all.length / 5); page++) {
      const { body } = await api.get(`${base}&pagination[page]=${page}&pagination[pageSize]=5`);
      expect(body.data).toEqual(all.slice((page - 1) * 5, page * 5));
    }
    const { body: offset } = await api.get(`${base}&pagination[start]=3&pagination[limit]=4`);
    expect(offset.data).toEqual(all.slice(3, 7));
  });

  test('groupBy=category,kind is the same; without sort the attributes ascending; sort by an attribute or an aggregate', async () => {
    const groups = combinations(published());
    const listed = await api.get('/api/articles?filters[title][$startsWith]=agg&aggregate[count]=*&groupBy=category,kind&pagination[pageSize]=100');
    expect(listed.body.data).toEqual(groups.map(({ category, kind, members }) => ({ group: { category, kind }, count: members.length })));
    const byKind = await api.get('/api/articles?filters[title][$startsWith]=agg&groupBy[0]=kind&groupBy[1]=featured&sort=kind:desc&pagination[pageSize]=100');
    const pairs = [...new Map(published().map((article) => [`${article.kind}|${article.featured}`, { kind: article.kind, featured: article.featured }])).values()];
    pairs.sort((a, b) => compareKeys(b.kind, a.kind) || Number(a.featured) - Number(b.featured));
    expect(byKind.body.data).toEqual(pairs.map((group) => ({ group })));
    const bySum = await api.get('/api/articles?filters[title][$startsWith]=agg&aggregate[max][0]=views&groupBy=kind,category&sort=max.views:desc&pagination[pageSize]=3');
    const maxima = groups
      .sort((a, b) => compareKeys(a.kind, b.kind) || compareKeys(a.category, b.category))
      .map(({ kind, category, members }) => ({ group: { kind, category }, max: { views: numbers(members.map((member) => member.views)).reduce<number | null>((a, b) => (a === null || b > a ? b : a), null) } }))
      .sort((a, b) => (b.max.views ?? -Infinity) - (a.max.views ?? -Infinity));
    expect(bySum.body.data).toEqual(maxima.slice(0, 3));
  });

  test.each([
    ['aggregate[sum][0]=secret', /secret.*private/],
    ['aggregate[min][0]=secret', /secret.*private/],
    ['aggregate[sum][0]=title', /title/],
    ['aggregate[avg][0]=sections', /sections.*dynamic zone/],
    ['aggregate[median][0]=views', /median/],
    ['groupBy[0]=tags', /tags.*to-many/],
    ['groupBy[0]=extra', /extra.*JSON/],
    ['groupBy[0]=sections', /sections.*dynamic zone/],
    ['groupBy[0]=secret', /secret.*private/],
    ['groupBy[0]=kind&sort=title:asc', /title/],
    ['groupBy[0]=category&groupBy[1]=tags', /tags.*to-many/],
    ['groupBy[0]=kind&groupBy[1]=secret', /secret.*private/],
    ['groupBy=kind,sections', /sections.*dynamic zone/],
    ['groupBy[0]=kind&groupBy[1]=nope', /Invalid key nope/],
    ['groupBy[0]=kind&groupBy[1]=category&sort=featured:asc', /featured/],
    ['groupBy=kind,category,featured,views,rating,publishDate,title,slug,locale', /at most 8/],
  ])('%s is a 400 that says why', async (query, message) => {
    const { status, body } = await api.get(`/api/articles?aggregate[count]=*&${query}`);
    expect(status).toBe(400);
    expect(body.error.name).toBe('ValidationError');
    expect(body.error.message).toMatch(message);
  });

  test('the Public role aggregates a type exactly when it may find it', async () => {
    const articles = await api.get('/api/articles?filters[title][$startsWith]=agg&aggregate[count]=*', { anonymous: true });
    expect(articles.status).toBe(200);
    expect(articles.body.data).toEqual([{ group: {}, count: published().length }]);
  });
});

describe('a caller who may find articles but not categories', () => {
  let narrow: TestServer;
  beforeAll(async () => {
    const plugins = defaultPlugins({ 'users-permissions': { config: { roles: { public: { permissions: ['api::article.article.find'] } } } } });
    narrow = await startTestServer({ config: { plugins } });
  });
  afterAll(() => narrow.stop());

  test('aggregates articles, cannot group them by category, and cannot aggregate tags', async () => {
    const client = restClient(narrow);
    expect((await client.get('/api/articles?aggregate[count]=*', { anonymous: true })).status).toBe(200);
    const byCategory = await client.get('/api/articles?aggregate[count]=*&groupBy[0]=category', { anonymous: true });
    expect(byCategory.status).toBe(403);
    const graphql = await narrow.gql('{ articles_connection { groupBy { category { key } } } }', {}, {});
    expect(graphql.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await client.get('/api/articles?aggregate[count]=*&groupBy[0]=kind&groupBy[1]=category', { anonymous: true })).status).toBe(403);
    expect((await client.get('/api/articles?aggregate[count]=*&groupBy[0]=kind&groupBy[1]=featured', { anonymous: true })).status).toBe(200);
    // `by` is a value: grouping by category is refused even when the key's category is not selected
    const combined = await narrow.gql('query($by: [ArticleGroupByAttribute!]!) { articles_connection { groups(by: $by) { key { kind } connection { aggregate { count } } } } }', { by: ['kind', 'category'] }, {});
    expect(combined.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const allowed = await narrow.gql<{ articles_connection: { groups: unknown[] } }>('{ articles_connection { groups(by: [kind, featured]) { key { kind featured } } } }', {}, {});
    expect(allowed.body.errors).toBeUndefined();
    expect((await client.get('/api/tags?aggregate[count]=*', { anonymous: true })).status).toBe(403);
  });
});
