import { startTestServer, type TestServer } from '../support/test-server';

/** GET /api/i18n/locales lists the configured locales as Strapi's i18n plugin does, behind its permission. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    config: {
      plugins: {
        i18n: { config: { locales: ['en', 'fr-CA'], defaultLocale: 'en' } },
        'users-permissions': { config: { roles: { public: { permissions: ['plugin::i18n.locales.listLocales'] } } } },
      },
    },
  });
});
afterAll(() => server.stop());

test('the locales, in Strapi shape, the default marked', async () => {
  const response = await fetch(`${server.url}/api/i18n/locales`);
  expect(response.status).toBe(200);
  const locales = (await response.json()) as Array<Record<string, unknown>>;
  expect(locales).toEqual([
    { id: 1, documentId: expect.stringMatching(/^[a-z0-9]{20,24}$/), name: 'English (en)', code: 'en', createdAt: expect.any(String), updatedAt: expect.any(String), publishedAt: expect.any(String), isDefault: true },
    { id: 2, documentId: expect.stringMatching(/^[a-z0-9]{20,24}$/), name: 'French (Canada) (fr-CA)', code: 'fr-CA', createdAt: expect.any(String), updatedAt: expect.any(String), publishedAt: expect.any(String), isDefault: false },
  ]);
  expect((await fetch(`${server.url}/api/i18n/locales`, { method: 'POST' })).status).toBe(405);
});

test('without plugin::i18n.locales.listLocales: 403', async () => {
  const closed = await startTestServer();
  try {
    expect((await fetch(`${closed.url}/api/i18n/locales`)).status).toBe(403);
  } finally {
    await closed.stop();
  }
});

test("the same locales over GraphQL, as Strapi's schema has them: one by documentId, a list and a connection with filters, sort and pagination", async () => {
  const list = await server.gql<{ i18NLocales: Array<{ code: string; name: string; documentId: string }> }>('{ i18NLocales(sort: "code:desc") { code name documentId } }');
  expect(list.body.errors).toBeUndefined();
  expect(list.body.data!.i18NLocales.map((locale) => locale.code)).toEqual(['fr-CA', 'en']);
  const [french] = list.body.data!.i18NLocales;
  const one = await server.gql<{ i18NLocale: { name: string } }>('query($id: ID!) { i18NLocale(documentId: $id) { name } }', { id: french.documentId });
  expect(one.body.data).toEqual({ i18NLocale: { name: 'French (Canada) (fr-CA)' } });
  const connection = await server.gql<{ i18NLocales_connection: unknown }>(
    '{ i18NLocales_connection(filters: { code: { startsWith: "fr" } }, pagination: { pageSize: 1 }) { nodes { code } pageInfo { total page pageSize pageCount } } }',
  );
  expect(connection.body.data).toEqual({ i18NLocales_connection: { nodes: [{ code: 'fr-CA' }], pageInfo: { total: 1, page: 1, pageSize: 1, pageCount: 1 } } });
  const closed = await startTestServer();
  try {
    const forbidden = await closed.gql<{ i18NLocales: unknown }>('{ i18NLocales { code } }');
    expect(forbidden.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  } finally {
    await closed.stop();
  }
});
