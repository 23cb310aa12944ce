import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { EXAMPLE_SCHEMA, startTestServer, type TestServer } from '../support/test-server';

/** Hand-written SDL and resolvers, and Shadow CRUD switches, from a schema folder's extensions/. */

let schemaDir: string;
let server: TestServer;

beforeAll(async () => {
  schemaDir = mkdtempSync(join(tmpdir(), 'folio-extensions-'));
  cpSync(EXAMPLE_SCHEMA, schemaDir, { recursive: true });
  mkdirSync(join(schemaDir, 'extensions'), { recursive: true });
  writeFileSync(
    join(schemaDir, 'extensions', 'stats.graphql'),
    `extend type Article { readingMinutes: Int }
     type Stats { articles: Int! }
     extend type Query { stats: Stats @auth(scope: ["api::article.article.find"]) }`,
  );
  writeFileSync(
    join(schemaDir, 'extensions', 'stats.js'),
    `module.exports = ({ models }) => ({
      resolvers: {
        Article: { readingMinutes: (article) => Math.max(1, Math.round(String(article.body || '').split(/\\s+/).length / 200)) },
        Query: {
          stats: async (_parent, _args, context) => ({
            articles: await context.services.documents.count(models.contentTypes.get('api::article.article'), { status: 'published', locale: 'en' }),
          }),
        },
      },
      shadowCRUD: {
        'api::tag.tag': { disable: true },
        'api::article.article': { disableActions: ['delete'], fields: { views: { output: false }, summary: { filters: false } } },
        'api::author.author': { disableMutations: true },
      },
    });`,
  );
  server = await startTestServer({ schemaDir });
});

afterAll(async () => {
  await server.stop();
  rmSync(schemaDir, { recursive: true, force: true });
});

test('hand-written SDL extends generated types and adds queries, with @auth honoured', async () => {
  const result = await server.gql<{ stats: { articles: number }; articles: unknown[] }>('{ stats { articles } articles { readingMinutes } }');
  expect(result.body).toEqual({ data: { stats: { articles: 0 }, articles: [] } });
});

test('a disabled content-type disappears everywhere, relations and filters included', async () => {
  for (const query of ['{ tags { name } }', '{ articles { tags { name } } }', '{ articles(filters: { tags: { name: { eq: "x" } } }) { title } }']) {
    const result = await server.gql(query);
    expect(result.status).toBe(400);
    expect(result.body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
  }
});

test('disabled actions and field switches', async () => {
  const noDelete = await server.gql('mutation { deleteArticle(documentId: "x") { documentId } }', {}, server.asAdmin);
  expect(noDelete.body.errors![0].message).toMatch(/Cannot query field "deleteArticle"/);
  const noOutput = await server.gql('{ articles { views } }');
  expect(noOutput.body.errors![0].message).toMatch(/Cannot query field "views"/);
  const stillInput = await server.gql('mutation { createArticle(data: { title: "x", views: 4 }) { title } }', {}, server.asAdmin);
  expect(stillInput.body.errors).toBeUndefined();
  const noFilter = await server.gql('{ articles(filters: { summary: { eq: "x" } }) { title } }');
  expect(noFilter.status).toBe(400);
  const noAuthorMutations = await server.gql('mutation { createAuthor(data: { name: "x" }) { name } }', {}, server.asAdmin);
  expect(noAuthorMutations.status).toBe(400);
  const authorsStillRead = await server.gql('{ authors { name } }');
  expect(authorsStillRead.body).toEqual({ data: { authors: [] } });
});

test('folio sdl prints the served schema: what Shadow CRUD switched off is not in it', () => {
  mkdirSync(join(schemaDir, 'no-config'), { recursive: true });
  const sdl = execFileSync(process.execPath, ['-r', require.resolve('../support/register-ts.js'), require.resolve('../../src/cli/run.ts'), 'sdl', '--schema', schemaDir, '--config', join(schemaDir, 'no-config')], {
    encoding: 'utf8',
  });
  expect(sdl).not.toMatch(/type Tag \{/);
  expect(sdl).not.toMatch(/deleteArticle\(/);
  expect(sdl).toMatch(/createArticle\(/);
});
