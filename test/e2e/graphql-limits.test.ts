import { PRODUCTION_ENV, startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** `{ categories { parent { parent { … name } } } }` with `levels` fields from the root field down. */
const nested = (levels: number): string => {
  let selection = 'name';
  for (let level = 1; level < levels - 1; level += 1) selection = `parent { ${selection} }`;
  return `{ categories { ${selection} } }`;
};

describe('depth limit (root field is depth 0, as Strapi counts)', () => {
  test('11 fields deep passes with depthLimit 10', async () => {
    const result = await server.gql(nested(11));
    expect(result.status).toBe(200);
    expect(result.body.errors).toBeUndefined();
  });

  test('12 fields deep is refused with 400 naming the limit', async () => {
    const result = await server.gql(nested(12));
    expect(result.status).toBe(400);
    expect(result.body.errors![0].message).toMatch(/exceeds maximum operation depth of 10/);
  });
});

describe('graphql-armor limits and hostile documents', () => {
  test('more aliases than maxAliases (30) are refused with 400', async () => {
    const aliases = (count: number) => Array.from({ length: count }, (_, index) => `a${index}: articles { title }`).join(' ');
    const allowed = await server.gql(`{ ${aliases(30)} }`);
    expect(allowed.status).toBe(200);
    const refused = await server.gql(`{ ${aliases(31)} }`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors![0].message).toMatch(/Aliases limit of 30 exceeded/);
  });

  test('1,000 aliases are refused with 400 before execution', async () => {
    const aliases = Array.from({ length: 1000 }, (_, index) => `a${index}: articles { title }`).join(' ');
    const result = await server.gql(`{ ${aliases} }`);
    expect(result.status).toBe(400);
    expect(result.body.errors![0].message).toMatch(/limit of \d+ exceeded/);
  });

  test('a fragment cycle is a validation error, not a crash', async () => {
    const result = await server.gql('query { articles { ...A } } fragment A on Article { ...B } fragment B on Article { ...A }');
    expect(result.status).toBe(400);
    expect(result.body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  test('a 1,000-branch or is refused by the cost limit (through variables); 100 branches answer', async () => {
    const or = (count: number) => Array.from({ length: count }, (_, index) => ({ title: { eq: `t${index}` } }));
    const result = await server.gql('query($f: ArticleFiltersInput) { articles(filters: $f) { title } }', { f: { or: or(1000) } });
    expect(result.status).toBe(400);
    expect(result.body.errors![0].message).toMatch(/^Query cost \d+ exceeds the maximum cost of 150000/);
    const hundred = await server.gql('query($f: ArticleFiltersInput) { articles(filters: $f) { title } }', { f: { or: or(100) } });
    expect(hundred.body).toEqual({ data: { articles: [] } });
  });

  test('a 1,000-level nested and is refused with BAD_USER_INPUT', async () => {
    let filter: Record<string, unknown> = { title: { eq: 'x' } };
    for (let level = 0; level < 1000; level += 1) filter = { and: [filter] };
    const result = await server.gql('query($f: ArticleFiltersInput) { articles(filters: $f) { title } }', { f: filter });
    expect(result.body.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
    expect(result.body.errors![0].message).toMatch(/deeper than/);
  });

  test('filters nested past the filter bound are BAD_USER_INPUT', async () => {
    let filter: Record<string, unknown> = { title: { eq: 'x' } };
    for (let level = 0; level < 40; level += 1) filter = { not: filter };
    const result = await server.gql('query($f: ArticleFiltersInput) { articles(filters: $f) { title } }', { f: filter });
    expect(result.body.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
    expect(result.body.errors![0].message).toMatch(/Filters nest deeper than 32 levels/);
  });

  test('an over-long filter string is refused', async () => {
    const result = await server.gql('query($t: String) { articles(filters: { title: { contains: $t } }) { title } }', { t: 'x'.repeat(5000) });
    expect(result.body.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
  });

  test('regular-expression characters in filters are matched literally', async () => {
    await server.gql('mutation { createArticle(data: { title: "a.b (c)" }) { documentId } }', {}, server.asAdmin);
    const literal = await server.gql<{ articles: Array<{ title: string }> }>('{ articles(filters: { title: { contains: ".b (" } }) { title } }');
    expect(literal.body.data!.articles).toEqual([{ title: 'a.b (c)' }]);
    const wildcard = await server.gql<{ articles: unknown[] }>('{ articles(filters: { title: { contains: "a.*" } }) { title } }');
    expect(wildcard.body.data!.articles).toEqual([]);
  });
});

describe('pagination and sort arguments', () => {
  test('page and offset pagination together is an error', async () => {
    const result = await server.gql('{ articles(pagination: { page: 1, start: 0 }) { title } }');
    expect(result.body.errors![0]).toMatchObject({
      message: 'Cannot use both page & offset pagination in the same query',
      extensions: { code: 'BAD_USER_INPUT', error: { name: 'PaginationError' } },
    });
  });

  test('unknown sort field or direction is BAD_USER_INPUT', async () => {
    for (const sort of ['nope', 'title:sideways', '__proto__:asc', 'category:asc']) {
      const result = await server.gql('query($s: [String]) { articles(sort: $s) { title } }', { s: [sort] });
      expect(result.body.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
    }
  });

  test('pageSize is clamped to maxLimit and limit -1 means maxLimit', async () => {
    const big = await server.gql<{ articles_connection: { pageInfo: { pageSize: number } } }>(
      '{ articles_connection(pagination: { pageSize: 500 }) { pageInfo { pageSize } } }',
    );
    expect(big.body.data!.articles_connection.pageInfo.pageSize).toBe(100);
    const all = await server.gql<{ articles_connection: { pageInfo: { pageSize: number } } }>(
      '{ articles_connection(pagination: { limit: -1 }) { pageInfo { pageSize } } }',
    );
    expect(all.body.data!.articles_connection.pageInfo.pageSize).toBe(100);
  });
});

describe('introspection and playground follow the environment', () => {
  test('development: introspection on', async () => {
    const result = await server.gql('{ __schema { queryType { name } } }');
    expect(result.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });

  test('production: introspection and GraphiQL off unless configured', async () => {
    const production = await startTestServer({ env: PRODUCTION_ENV });
    try {
      const result = await production.gql('{ __schema { queryType { name } } }');
      expect(result.status).toBe(400);
      const page = await fetch(`${production.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(await page.text()).not.toMatch(/GraphiQL/);
    } finally {
      await production.stop();
    }
  });
});

describe('amount limit', () => {
  test('caps lists instead of refusing: paginated pages are clamped (pageInfo says so), other lists truncated and named in extensions; introspection is whole', async () => {
    const limited = await startTestServer({
      config: {
        plugins: {
          graphql: { config: { amountLimit: 3 } },
          'users-permissions': { config: { roles: { public: { permissions: ['api::homepage.homepage.find', 'api::tag.tag.find'] } } } },
        },
      },
    });
    try {
      const keywords = Array.from({ length: 5 }, (_, index) => ({ value: `k${index}` }));
      const created = await limited.gql(
        'mutation($k: [ComponentSharedKeywordInput]) { updateHomepage(data: { seo: { metaTitle: "m", keywords: $k } }) { headline } }',
        { k: keywords },
        limited.asAdmin,
      );
      expect(created.body.errors).toBeUndefined();
      for (const name of ['a', 'b', 'c', 'd', 'e']) await limited.gql('mutation($n: String!) { createTag(data: { name: $n }) { documentId } }', { n: name }, limited.asAdmin);

      const whole = await limited.gql<{ homepage: { seo: { keywords: unknown[] } } }>('{ homepage { seo { keywords { value } } } }');
      expect(whole.status).toBe(200);
      expect(whole.body.data!.homepage.seo.keywords).toHaveLength(3);
      expect((whole.body as { extensions?: unknown }).extensions).toEqual({ amountLimit: { limit: 3, truncated: ['homepage.seo.keywords'] } });

      const page = await limited.gql<{ tags_connection: { nodes: unknown[]; pageInfo: { pageSize: number; total: number } } }>(
        '{ tags_connection(pagination: { pageSize: 50 }) { nodes { name } pageInfo { pageSize total } } }',
      );
      expect(page.body.data!.tags_connection.nodes).toHaveLength(3);
      expect(page.body.data!.tags_connection.pageInfo).toEqual({ pageSize: 3, total: 5 });

      const schema = await limited.gql<{ __schema: { types: unknown[] } }>('{ __schema { types { name } } }');
      expect(schema.body.errors).toBeUndefined();
      expect(schema.body.data!.__schema.types.length).toBeGreaterThan(3);

      // REST is held by api.rest's limits, not GraphQL's amountLimit
      const rest = await fetch(`${limited.url}/api/tags`);
      const body = (await rest.json()) as { data: unknown[]; meta: { pagination: { pageSize: number } } };
      expect(body.data).toHaveLength(5);
      expect(body.meta.pagination.pageSize).toBe(25);
    } finally {
      await limited.stop();
    }
  });
});

describe("REST is limited by REST's knobs, not by the operation Folio compiles for it", () => {
  test('maxTokens, maxAliases and depthLimit count /graphql documents only; api.rest.maxPopulateDepth bounds populate', async () => {
    const tight = await startTestServer({
      config: {
        plugins: { graphql: { config: { maxTokens: 200, maxAliases: 3, depthLimit: 3 } } },
        api: { rest: { maxPopulateDepth: 3 } },
      },
    });
    try {
      for (const path of ['/api/articles?populate=*', '/api/articles?populate[category][populate][parent][populate]=parent']) {
        const answer = await fetch(`${tight.url}${path}`, { headers: tight.asAdmin });
        expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      }
      const deep = await fetch(`${tight.url}/api/articles?populate[category][populate][parent][populate][parent][populate]=parent`, { headers: tight.asAdmin });
      expect(deep.status).toBe(400);
      expect(((await deep.json()) as { error: unknown }).error).toMatchObject({
        name: 'ValidationError',
        message: 'populate nests deeper than 3 levels at category.parent.parent.parent',
        details: { param: 'populate', maxPopulateDepth: 3 },
      });
      // /graphql keeps its armour
      const aliases = await tight.gql('{ a: tags { name } b: tags { name } c: tags { name } d: tags { name } }', undefined, tight.asAdmin);
      expect(aliases.status).toBe(400);
      expect((await tight.gql(nested(6), undefined, tight.asAdmin)).status).toBe(400);
    } finally {
      await tight.stop();
    }
  });
});

describe('each built-in protection can be turned off by config (false)', () => {
  test('depthLimit, maxAliases, maxTokens and maxCost off: what they refused runs', async () => {
    const open = await startTestServer({ config: { plugins: { graphql: { config: { depthLimit: false, maxAliases: false, maxTokens: false, maxCost: false } } } } });
    try {
      expect((await open.gql(nested(14), undefined, open.asAdmin)).body.errors).toBeUndefined();
      const aliases = Array.from({ length: 40 }, (_, index) => `a${index}: tags { name }`).join(' ');
      expect((await open.gql(`{ ${aliases} }`, undefined, open.asAdmin)).body.errors).toBeUndefined();
    } finally {
      await open.stop();
    }
  });

  test('maxInputDepth: another bound refuses what the default lets through, false lets through what the default refuses', async () => {
    const tight = await startTestServer({ config: { plugins: { graphql: { config: { maxInputDepth: 4 } } } } });
    const open = await startTestServer({ config: { plugins: { graphql: { config: { maxInputDepth: false } } } } });
    try {
      const filter = { and: [{ and: [{ title: { eq: 'x' } }] }] };
      const list = 'query($f: ArticleFiltersInput) { articles(filters: $f) { title } }';
      expect((await server.gql(list, { f: filter })).body).toEqual({ data: { articles: [] } });
      const refused = await tight.gql(list, { f: filter });
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.[0]).toMatchObject({ message: 'Input values nest deeper than 4 levels', extensions: { code: 'BAD_USER_INPUT' } });

      let extra: unknown = 'leaf';
      for (let level = 0; level < 150; level += 1) extra = { deeper: extra };
      const create = 'mutation($extra: JSON) { createArticle(data: { title: "Deep", extra: $extra }) { title } }';
      expect((await server.gql(create, { extra }, server.asAdmin)).body.errors?.[0].message).toBe('Input values nest deeper than 100 levels');
      expect((await open.gql(create, { extra }, open.asAdmin)).body).toEqual({ data: { createArticle: { title: 'Deep' } } });
    } finally {
      await tight.stop();
      await open.stop();
    }
  });
});
