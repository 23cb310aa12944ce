import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFolio, type StartedFolio } from '../../src/app/start-folio';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/**
 * OpenTelemetry tracing as docs/configuration.md shows it: `@envelop/opentelemetry` added to
 * `graphql.config.yoga.plugins` with the user's own tracer provider traces `/graphql` and REST
 * alike, REST operations named by the route's root field.
 */

interface ExportedSpan {
  name: string;
  traceId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

let root: string;
let server: StartedFolio;
const spansFile = () => join(root, 'spans.jsonl');

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-otel-'));
  const configDir = join(root, 'config');
  mkdirSync(configDir);
  writeFileSync(spansFile(), '');
  writeFileSync(
    join(configDir, 'plugins.js'),
    `const { useOpenTelemetry } = require(${JSON.stringify(require.resolve('@envelop/opentelemetry'))});
    const { BasicTracerProvider, SimpleSpanProcessor } = require(${JSON.stringify(require.resolve('@opentelemetry/sdk-trace-base'))});
    const fs = require('node:fs');
    // an exporter writing each ended span as a line, for the test to read
    const exporter = {
      export(spans, done) {
        for (const span of spans) {
          fs.appendFileSync(${JSON.stringify(spansFile())}, JSON.stringify({ name: span.name, traceId: span.spanContext().traceId, parentSpanId: span.parentSpanId, attributes: span.attributes }) + '\\n');
        }
        done({ code: 0 });
      },
      shutdown: async () => {},
    };
    const provider = new BasicTracerProvider();
    provider.addSpanProcessor(new SimpleSpanProcessor(exporter));
    module.exports = {
      graphql: { config: { yoga: { plugins: [useOpenTelemetry({ resolvers: true, variables: false, result: false }, provider)] } } },
      'users-permissions': { config: { roles: { public: { permissions: ['api::article.article.find', 'api::category.category.find'] } } } },
    };`,
  );
  server = await startFolio({ schemaDir: EXAMPLE_SCHEMA, configDir, dataDir: join(root, 'data'), host: '127.0.0.1', port: 0, env: { NODE_ENV: 'test' } });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const readSpans = (): ExportedSpan[] =>
  readFileSync(spansFile(), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ExportedSpan);

test('GraphQL and REST operations are traced, each with its resolvers as child spans', async () => {
  const graphql = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'query Categories { categories { name } }' }),
  });
  expect(graphql.status).toBe(200);
  expect((await fetch(`${server.url}/api/articles?populate=category`)).status).toBe(200);

  const spans = readSpans();
  const graphqlSpan = spans.find((span) => span.name === 'query.Categories');
  const restSpan = spans.find((span) => span.name === 'query.Rest_articles_connection');
  expect(graphqlSpan?.attributes['graphql.execute.operationName']).toBe('Categories');
  expect(restSpan?.attributes['graphql.execute.operationType']).toBe('query');
  const children = (parent: ExportedSpan | undefined) => spans.filter((span) => span.traceId === parent?.traceId && span.name !== parent?.name).map((span) => span.name);
  expect(children(graphqlSpan)).toContain('Query.categories');
  expect(children(restSpan)).toContain('Query.articles_connection');
});
