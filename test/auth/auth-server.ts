import { defaultPlugins, FULL_ACCESS_TOKEN, startTestServer, type TestServer } from '../support/test-server';
import { call, bearer } from './http';

/** A test server with a known JWT secret and users-permissions settings chosen by the test. */

export const JWT_SECRET = 'test-jwt-secret-that-is-long-enough-0123456789';
export const READ_ONLY_TOKEN = 'test-read-only-token-0123456789abcdef';
export const CUSTOM_TOKEN = 'test-custom-token-0123456789abcdef';

export const PUBLIC_READS = ['find', 'findOne'].flatMap((action) => ['article', 'category', 'tag', 'author'].map((name) => `api::${name}.${name}.${action}`));

export interface AuthServerOptions {
  roles?: Record<string, { permissions: string[] }>;
  rateLimit?: { max: number; windowMs: number };
  schemaDir?: string;
  env?: NodeJS.ProcessEnv;
}

export const startAuthServer = (options: AuthServerOptions = {}): Promise<TestServer> =>
  startTestServer({
    schemaDir: options.schemaDir,
    env: options.env,
    config: {
      plugins: defaultPlugins({
        'users-permissions': {
          config: {
            jwtSecret: JWT_SECRET,
            rateLimit: options.rateLimit ?? { max: 1000, windowMs: 60_000 },
            roles: options.roles ?? { public: { permissions: [...PUBLIC_READS, 'api::homepage.homepage.find'] } },
          },
        },
      }),
      admin: {
        apiTokens: [
          { name: 'test-admin', type: 'full-access', accessKey: FULL_ACCESS_TOKEN },
          { name: 'reader', type: 'read-only', accessKey: READ_ONLY_TOKEN },
          { name: 'tagger', type: 'custom', accessKey: CUSTOM_TOKEN, permissions: ['api::tag.tag.create', 'api::tag.tag.find'] },
        ],
      },
    },
  });

let registered = 0;

/** Registers a fresh user over REST and returns its JWT and record. */
export const registerUser = async (server: TestServer, name = `user${++registered}`) => {
  const answer = await call<{ jwt: string; user: { id: number; documentId: string; username: string } }>(server.url, 'POST', '/api/auth/local/register', {
    body: { username: name, email: `${name}@example.com`, password: 'Passw0rd!' },
  });
  if (answer.status !== 200) throw new Error(`register ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { ...answer.body, headers: bearer(answer.body.jwt) };
};
