import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_SCHEMA, startTestServer } from '../support/test-server';
import { startupFailure } from '../support/startup-failure';

/** Mistakes that used to be accepted in silence stop start-up with the file, the path and the likely intent. */


const roles = (permissions: string[]) => ({ plugins: { 'users-permissions': { config: { roles: { public: { permissions } } } } } });

test('a misspelled role permission', async () => {
  const message = await startupFailure({ config: roles(['api::artcle.article.find']) });
  expect(message).toMatch(/config\/plugins\.json: users-permissions\.config\.roles\.public\.permissions\[0\] "api::artcle\.article\.find" is not a permission anything here requires \(did you mean "api::article\.article\.find"\?\)/);
});

test('a misspelled API token permission', async () => {
  const message = await startupFailure({ config: { admin: { apiTokens: [{ name: 'x', type: 'custom', accessKey: 'k'.repeat(32), permissions: ['api::article.article.finds'] }] } } });
  expect(message).toMatch(/config\/admin\.json: apiTokens\[0\]\.permissions\[0\] "api::article\.article\.finds" is not a permission anything here requires \(did you mean "api::article\.article\.find"\?\)/);
});

test("Strapi plugins' permissions Folio does not serve are accepted; REST-only ones (users' writes) are known", async () => {
  const server = await startTestServer({ config: roles(['plugin::users-permissions.auth.connect', 'plugin::i18n.locales.listLocales', 'api::tag.tag.find', 'plugin::users-permissions.user.create']) });
  await server.stop();
});

test('resolversConfig auth with "scopes" instead of "scope"', async () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-startup-'));
  try {
    const schemaDir = join(root, 'schema');
    cpSync(EXAMPLE_SCHEMA, schemaDir, { recursive: true });
    mkdirSync(join(schemaDir, 'extensions'), { recursive: true });
    writeFileSync(join(schemaDir, 'extensions', 'auth.js'), `module.exports = { resolversConfig: { 'Query.tags': { auth: { scopes: ['api::tag.tag.find'] } } } };`);
    const file = join(schemaDir, 'extensions', 'auth.js');
    expect(await startupFailure({ schemaDir })).toBe(
      `${file}: resolversConfig.Query.tags.auth.scopes is not a known option (did you mean scope?)\n${file}: resolversConfig.Query.tags.auth.scope is required`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
