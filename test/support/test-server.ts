import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFolio, type StartedFolio } from '../../src/app/start-folio';
import { MONGODB_TEST_URL } from '../mongodb/server-kind';

/**
 * A real Folio on a random loopback port, with the example models, a fresh data directory and
 * the configuration files given. Stopped (and its data removed) by `stop()`.
 */

export const EXAMPLE_SCHEMA = resolve(__dirname, '../../schema');
export const FULL_ACCESS_TOKEN = 'test-full-access-token-0123456789abcdef';

export interface TestServer {
  url: string;
  folio: StartedFolio['folio'];
  gql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GqlResponse<T>>;
  asAdmin: Record<string, string>;
  stop(): Promise<void>;
}

export interface GqlResponse<T> {
  status: number;
  body: { data?: T | null; errors?: Array<{ message: string; path?: string[]; extensions?: Record<string, unknown> }> };
}

/** What production requires of the environment (see auth-secrets): a server started with it runs as in production. */
export const PRODUCTION_ENV: NodeJS.ProcessEnv = { NODE_ENV: 'production', JWT_SECRET: 'test-secret-test-secret-test-secret', API_TOKEN_SALT: 'test-salt-test-salt-test-salt-0123456789' };

/**
 * `config/database` for a database of its own on the test run's MongoDB (test/mongodb/global-setup.js);
 * named after `dataDir` when one is given, so a server started again on the same data finds it again.
 */
export const mongodbDatabase = (dataDir?: string) => ({
  client: 'mongodb' as const,
  uri: MONGODB_TEST_URL,
  options: { dbName: `folio_test_${dataDir ? createHash('sha256').update(dataDir).digest('hex').slice(0, 12) : randomUUID().slice(0, 8)}` },
});

/**
 * The configuration files a test server starts with when the test gives none of its own: with
 * FOLIO_TEST_DATABASE=mongodb (`npm run test:mongodb`), a database of its own on the run's MongoDB.
 */
export const withTestDatabase = (files: ConfigFiles, dataDir?: string): ConfigFiles =>
  process.env.FOLIO_TEST_DATABASE === 'mongodb' && files.database === undefined ? { ...files, database: mongodbDatabase(dataDir) } : files;

export type ConfigFiles = Record<string, unknown>;

export const defaultPlugins = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  i18n: { config: { locales: ['en', 'fr'], defaultLocale: 'en' } },
  // no mail in most tests, on purpose: each start would otherwise print the warning that nothing can be mailed
  email: { enabled: false },
  'users-permissions': {
    config: {
      roles: {
        public: {
          permissions: ['find', 'findOne'].flatMap((action) =>
            ['article', 'category', 'tag', 'author'].map((name) => `api::${name}.${name}.${action}`),
          ).concat(['api::homepage.homepage.find']),
        },
      },
    },
  },
  ...extra,
});

export const startTestServer = async (
  options: { config?: ConfigFiles; schemaDir?: string; env?: NodeJS.ProcessEnv; /** kept by stop(): for restarts on the same data */ dataDir?: string } = {},
): Promise<TestServer> => {
  const root = mkdtempSync(join(tmpdir(), 'folio-test-'));
  const configDir = join(root, 'config');
  mkdirSync(configDir);
  const files = withTestDatabase({
    plugins: defaultPlugins(),
    admin: { apiTokens: [{ name: 'test-admin', type: 'full-access', accessKey: FULL_ACCESS_TOKEN }] },
    ...options.config,
  }, options.dataDir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(configDir, `${name}.json`), JSON.stringify(content));
  const running = await startFolio({
    schemaDir: options.schemaDir ?? EXAMPLE_SCHEMA,
    configDir,
    dataDir: options.dataDir ?? join(root, 'data'),
    host: '127.0.0.1',
    port: 0,
    env: { NODE_ENV: 'test', ...options.env },
  });
  const asAdmin = { authorization: `Bearer ${FULL_ACCESS_TOKEN}` };
  return {
    url: running.url,
    folio: running.folio,
    asAdmin,
    async gql(query, variables, headers = {}) {
      const response = await fetch(`${running.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: (await response.json()) as GqlResponse<never>['body'] };
    },
    async stop() {
      await running.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
};
