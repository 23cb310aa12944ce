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
