import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_SCHEMA, type TestServer } from '../support/test-server';
import { bearer, call } from '../auth/http';
import { READ_ONLY_TOKEN, registerUser, startAuthServer } from '../auth/auth-server';

/**
 * Server-side customization from `schema/extensions/`: resolversConfig `auth`, `policies` and
 * `middlewares` (by name, with config/options, or as functions) and the `@policy` directive, over HTTP.
 */

let schemaDir: string;
let server: TestServer;

beforeAll(async () => {
  schemaDir = mkdtempSync(join(tmpdir(), 'folio-resolvers-config-'));
  cpSync(EXAMPLE_SCHEMA, schemaDir, { recursive: true });
  mkdirSync(join(schemaDir, 'extensions'));
  writeFileSync(
    join(schemaDir, 'extensions', 'greetings.graphql'),
    `extend type Query {
      hello: String
      openHello: String
      scopedHello: String
      policyHello(name: String!): String @policy(name: "is-not-bob")
      configuredHello: String @policy(name: "has-level", config: { level: 2 })
      levelHello: String
      quietHello: String
    }`,
  );
  writeFileSync(
    join(schemaDir, 'extensions', 'greetings.js'),
    `module.exports = {
      resolvers: {
        Query: {
          hello: () => 'hello',
          openHello: () => 'open',
          scopedHello: () => 'scoped',
          policyHello: (_parent, args) => 'hi ' + args.name,
          configuredHello: () => 'configured',
          levelHello: () => 'level',
          quietHello: () => 'quiet',
        },
      },
      policies: {
        'is-not-bob': ({ args }) => args.name !== 'bob',
        // Strapi-written policies take their config as the second argument.
        'has-level': (policyContext, config) => policyContext.config.level === 2 && config.level === 2,
        'asks-nicely': ({ http }) => http.request.headers.get('x-please') === 'yes',
      },
      middlewares: {
        shout: (options) => async (next, parent, args, context, info) => String(await next(parent, args, context, info)).toUpperCase() + ((options && options.suffix) || ''),
      },
      resolversConfig: {
        'Query.openHello': {
          auth: false,
          middlewares: [async (next, parent, args, context, info) => 'wrapped ' + (await next(parent, args, context, info))],
        },
        'Query.scopedHello': { auth: { scope: ['api::article.article.create'] } },
        'Query.policyHello': { auth: false },
        'Query.configuredHello': { auth: false },
        'Query.levelHello': { auth: false, policies: [{ name: 'has-level', config: { level: 2 } }] },
        'Query.quietHello': { auth: false, policies: [{ name: 'has-level', config: { level: 1 } }], middlewares: ['shout'] },
        'Query.authors': { policies: ['asks-nicely'] },
        'Query.tags': { policies: [({ state }) => state.user !== undefined && state.user.username.startsWith('polite')] },
        'Author.name': { middlewares: [{ name: 'shout', options: { suffix: '!' } }] },
      },
    };`,
  );
  server = await startAuthServer({
    schemaDir,
    roles: {
      public: { permissions: ['api::author.author.find', 'api::tag.tag.find'] },
      authenticated: { permissions: ['api::tag.tag.find'] },
    },
  });
  await server.gql('mutation { createAuthor(data: { name: "ada" }) { name } createTag(data: { name: "t" }) { name } }', {}, server.asAdmin);
});

afterAll(async () => {
  await server.stop();
  rmSync(schemaDir, { recursive: true, force: true });
});

const codeOf = (answer: { body: { errors?: Array<{ extensions?: Record<string, unknown> }> } }) => answer.body.errors?.[0]?.extensions?.code;

describe('auth', () => {
  test('a hand-written root field without auth config is for authenticated callers only', async () => {
    expect(codeOf(await server.gql('{ hello }'))).toBe('FORBIDDEN');
    const { headers } = await registerUser(server);
    expect((await server.gql('{ hello }', {}, headers)).body).toEqual({ data: { hello: 'hello' } });
    expect((await server.gql('{ hello }', {}, bearer(READ_ONLY_TOKEN))).body).toEqual({ data: { hello: 'hello' } });
  });

  test('auth: false makes a field public; auth: { scope } requires the scope', async () => {
    expect((await server.gql('{ openHello }')).body).toEqual({ data: { openHello: 'wrapped open' } });
    expect(codeOf(await server.gql('{ scopedHello }'))).toBe('FORBIDDEN');
    expect(codeOf(await server.gql('{ scopedHello }', {}, (await registerUser(server)).headers))).toBe('FORBIDDEN');
    expect((await server.gql('{ scopedHello }', {}, server.asAdmin)).body).toEqual({ data: { scopedHello: 'scoped' } });
  });
});

describe('policies', () => {
  test('@policy runs a registered policy; a falsy result is FORBIDDEN "Policy Failed"', async () => {
    expect((await server.gql('{ policyHello(name: "ann") }')).body).toEqual({ data: { policyHello: 'hi ann' } });
    const blocked = await server.gql('{ policyHello(name: "bob") }');
    expect(blocked.status).toBe(200);
    expect(blocked.body.data).toEqual({ policyHello: null });
    expect(blocked.body.errors![0]).toMatchObject({ message: 'Policy Failed', path: ['policyHello'], extensions: { code: 'FORBIDDEN' } });
  });

  test('@policy hands the policy its config', async () => {
    expect((await server.gql('{ configuredHello }')).body).toEqual({ data: { configuredHello: 'configured' } });
  });

  test('resolversConfig names a policy with its config as { name, config }', async () => {
    expect((await server.gql('{ levelHello }')).body).toEqual({ data: { levelHello: 'level' } });
    expect((await server.gql('{ quietHello }')).body.errors![0]).toMatchObject({ message: 'Policy Failed', extensions: { code: 'FORBIDDEN' } });
  });

  test('a named policy in resolversConfig sees the HTTP request', async () => {
    expect(codeOf(await server.gql('{ authors { documentId } }'))).toBe('FORBIDDEN');
    expect(codeOf(await server.gql('{ authors { documentId } }', {}, { 'x-please': 'yes' }))).toBeUndefined();
  });

  test('a function policy in resolversConfig sees who is asking', async () => {
    expect(codeOf(await server.gql('{ tags { name } }'))).toBe('FORBIDDEN');
    expect(codeOf(await server.gql('{ tags { name } }', {}, (await registerUser(server, 'rude')).headers))).toBe('FORBIDDEN');
    expect((await server.gql('{ tags { name } }', {}, (await registerUser(server, 'polite')).headers)).body).toEqual({ data: { tags: [{ name: 't' }] } });
  });

  test("a policy on a list guards its connection too, and so the REST list, which runs as the connection", async () => {
    expect(codeOf(await server.gql('{ tags_connection { nodes { name } } }'))).toBe('FORBIDDEN');
    expect((await call(server.url, 'GET', '/api/tags')).status).toBe(403);
    expect((await call(server.url, 'GET', '/api/authors', { headers: { 'x-please': 'yes' } })).status).toBe(200);
    expect((await call(server.url, 'GET', '/api/authors')).status).toBe(403);
    const polite = (await registerUser(server, 'politer')).headers;
    const list = await call<{ data: Array<{ name: string }> }>(server.url, 'GET', '/api/tags', { headers: polite });
    expect(list.body.data.map((tag) => tag.name)).toEqual(['t']);
  });
});

describe('middlewares', () => {
  test('policies run before middlewares: a refused field never reaches them', async () => {
    const answer = await server.gql('{ quietHello }');
    expect(answer.body.data).toEqual({ quietHello: null });
  });

  test('a named middleware with options wraps a nested resolver; a function middleware wraps a root one', async () => {
    expect((await server.gql('{ authors { name } }', {}, { 'x-please': 'yes' })).body).toEqual({ data: { authors: [{ name: 'ADA!' }] } });
    expect((await server.gql('{ openHello }')).body).toEqual({ data: { openHello: 'wrapped open' } });
  });
});
