import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFolio, type StartedFolio } from '../../src/app/start-folio';
import { EXAMPLE_SCHEMA, startTestServer } from '../support/test-server';
import { copyExampleSchema } from '../support/schema-copy';

/**
 * A user's own envelop plugin (`graphql.config.plugins`, or `yoga.plugins`) runs on /graphql and on every REST
 * request alike, after Folio's limits, and can tell the surfaces apart (`context.surface`).
 */

let root: string;
let server: StartedFolio;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-user-plugins-'));
  const configDir = join(root, 'config');
  mkdirSync(configDir);
  writeFileSync(join(root, 'seen.txt'), '');
  writeFileSync(
    join(configDir, 'plugins.js'),
    `const { GraphQLError, Kind } = require(${JSON.stringify(require.resolve('graphql'))});
    const fs = require('node:fs');
    const noTags = () => ({
      onExecute({ args, setResultAndStopExecution }) {
        fs.appendFileSync(${JSON.stringify(join(root, 'seen.txt'))}, args.contextValue.surface + '\\n');
        const root = args.document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
        const fields = root.selectionSet.selections.map((selection) => selection.name.value);
        if (fields.some((name) => name.startsWith('tags'))) {
          setResultAndStopExecution({ errors: [new GraphQLError('Tags are closed today', { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } })] });
        }
      },
    });
    module.exports = {
      graphql: { config: { plugins: [noTags()] } },
      'users-permissions': { config: { roles: { public: { permissions: ['api::tag.tag.find', 'api::category.category.find'] } } } },
    };`,
  );
  server = await startFolio({ schemaDir: EXAMPLE_SCHEMA, configDir, dataDir: join(root, 'data'), host: '127.0.0.1', port: 0, env: { NODE_ENV: 'test' } });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const readSeen = () => require('node:fs').readFileSync(join(root, 'seen.txt'), 'utf8').trim().split('\n') as string[];

test('the same refusal on both surfaces, each in its own envelope; other operations pass', async () => {
  const graphql = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ tags { name } }' }),
  });
  expect(graphql.status).toBe(400);
  expect(((await graphql.json()) as { errors: Array<{ message: string }> }).errors[0].message).toBe('Tags are closed today');

  const rest = await fetch(`${server.url}/api/tags`);
  expect(rest.status).toBe(400);
  expect(((await rest.json()) as { error: unknown }).error).toEqual({ status: 400, name: 'ValidationError', message: 'Tags are closed today', details: {} });

  expect((await fetch(`${server.url}/api/categories`)).status).toBe(200);
  expect(readSeen()).toEqual(['graphql', 'rest', 'rest']);
});

test('an extension module may export plugins, as a function of the models and config; they guard both surfaces', async () => {
  const schema = copyExampleSchema();
  mkdirSync(join(schema.schemaDir, 'extensions'), { recursive: true });
  writeFileSync(
    join(schema.schemaDir, 'extensions', 'no-categories.js'),
    `const { GraphQLError } = require(${JSON.stringify(require.resolve('graphql'))});
    module.exports = {
      plugins: ({ models, config }) => [{
        onExecute({ args, setResultAndStopExecution }) {
          const text = require(${JSON.stringify(require.resolve('graphql'))}).print(args.document);
          if (models.contentTypes.has('api::category.category') && config.env === 'test' && /categor/.test(text)) {
            setResultAndStopExecution({ errors: [new GraphQLError('No categories here', { extensions: { code: 'FORBIDDEN', http: { status: 403 } } })] });
          }
        },
      }],
    };`,
  );
  const server = await startTestServer({ schemaDir: schema.schemaDir });
  try {
    const graphql = await server.gql('{ categories { name } }', {}, server.asAdmin);
    expect(graphql.body.errors![0]).toMatchObject({ message: 'No categories here', extensions: { code: 'FORBIDDEN' } });
    const rest = await fetch(`${server.url}/api/categories`, { headers: server.asAdmin });
    expect(rest.status).toBe(403);
    expect((await fetch(`${server.url}/api/tags`, { headers: server.asAdmin })).status).toBe(200);
  } finally {
    await server.stop();
    schema.remove();
  }
});
