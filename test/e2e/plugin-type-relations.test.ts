import { resolve } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';
import { stderrDuring } from '../support/stderr-lines';

/**
 * A relation, in a component, to a plugin's content type that is not part of the project's src/
 * (test/fixtures/plugin-type-relation: `blocks.form`'s `form`, to `plugin::form-builder.built-form`):
 * Folio starts, leaves the attribute out of both surfaces, and says so in one line naming the
 * attribute, the plugin and the config that maps or silences it.
 */

type Json = Record<string, unknown>;

const FIXTURE = resolve(__dirname, '../fixtures/plugin-type-relation');

let server: TestServer;
let startLines: string[];

const request = async (method: string, path: string, body?: Json): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
};

const folioLines = (written: string[]) => written.join('').split('\n').filter((line) => line.startsWith('folio:'));

beforeAll(async () => {
  const started = await stderrDuring(() => startTestServer({ schemaDir: FIXTURE, config: { plugins: { email: { enabled: false } } } }));
  server = started.result;
  startLines = folioLines(started.written);
});
afterAll(async () => {
  await server?.stop();
});

test('starts with one line naming the attribute, the plugin and how to map or silence it', () => {
  expect(startLines).toEqual([
    `folio: ${FIXTURE}/components/blocks/form.json: attribute "form" is left out of both surfaces: its target plugin::form-builder.built-form is a content type of the form-builder plugin, not of the project's src/, which Folio does not serve. Relate it to a content type of the project instead, or leave it out without this line, in config/plugins: 'relation-targets': { config: { 'plugin::form-builder.built-form': 'api::<name>.<name>' } } (or false)`,
  ]);
});

test('the component is served without it on both surfaces; populate naming it answers without it, a body naming it is refused', async () => {
  const created = await request('POST', '/api/pages', { data: { title: 'Contact', blocks: [{ __component: 'blocks.form', heading: 'Write to us' }, { __component: 'blocks.text', body: 'Hi' }] } });
  expect(created.status).toBe(201);
  const documentId = (created.body.data as Json).documentId;
  const expected = [
    { __component: 'blocks.form', id: expect.any(Number), heading: 'Write to us' },
    { __component: 'blocks.text', id: expect.any(Number), body: 'Hi' },
  ];
  for (const query of ['populate=*', 'populate=blocks.form', 'populate[blocks][on][blocks.form][populate]=form&populate[blocks][on][blocks.text]=true', 'populate[blocks][populate]=*']) {
    const { status, body } = await request('GET', `/api/pages/${documentId}?${query}`);
    expect({ query, status, blocks: (body.data as Json | undefined)?.blocks }).toEqual({ query, status: 200, blocks: expected });
  }

  const refused = await request('PUT', `/api/pages/${documentId}`, { data: { blocks: [{ __component: 'blocks.form', heading: 'x', form: 1 }] } });
  expect(refused.status).toBe(400);

  const { body } = await server.gql<{ type: { fields: Array<{ name: string }> }; pages: Array<{ blocks: Json[] }> }>(
    '{ type: __type(name: "ComponentBlocksForm") { fields { name } } pages { blocks { ... on ComponentBlocksForm { heading } } } }',
    {},
    server.asAdmin,
  );
  expect(body.errors).toBeUndefined();
  expect(body.data?.type.fields.map((field) => field.name)).toEqual(['id', 'heading']);
  expect(body.data?.pages).toEqual([{ blocks: [{ heading: 'Write to us' }, {}] }]);
});

test("config/plugins 'relation-targets' set to false leaves it out without the line", async () => {
  const started = await stderrDuring(() =>
    startTestServer({ schemaDir: FIXTURE, config: { plugins: { email: { enabled: false }, 'relation-targets': { config: { 'plugin::form-builder.built-form': false } } } } }),
  );
  await started.result.stop();
  expect(folioLines(started.written)).toEqual([]);
});
