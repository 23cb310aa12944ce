import { startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';
import { call } from '../auth/http';

/**
 * strapi.documents(uid) on the draft & publish homepage single type, against Strapi 5's Document Service:
 * a call naming another document than the type's own changes nothing, and a second document is refused.
 */
const CONTROLLER = `const { factories } = require('@strapi/strapi');
const run = async (work) => {
  try { return { ok: await work() }; } catch (error) { return { error: error.name + ': ' + error.message }; }
};
const homepage = () => strapi.documents('api::homepage.homepage');
module.exports = factories.createCoreController('api::homepage.homepage', ({ strapi }) => ({
  createPublished: () => run(async () => (await homepage().create({ data: { headline: 'second' }, status: 'published' })).headline),
  deleteWrong: () => run(() => homepage().delete({ documentId: 'not-this-one' })),
  updateWrong: () => run(async () => (await homepage().update({ documentId: 'not-this-one', data: { headline: 'changed' } }))?.headline ?? null),
}));
`;
const ROUTES = `module.exports = { routes: [
  { method: 'GET', path: '/homepage-create-published', handler: 'homepage.createPublished' },
  { method: 'GET', path: '/homepage-delete-wrong', handler: 'homepage.deleteWrong' },
  { method: 'GET', path: '/homepage-update-wrong', handler: 'homepage.updateWrong' },
] };
`;

let schema: SchemaCopy;
let server: TestServer;
beforeEach(async () => {
  schema = copyExampleSchema();
  schema.write('api/homepage/controllers/homepage.js', CONTROLLER);
  schema.write('api/homepage/routes/custom.js', ROUTES);
  schema.write('api/homepage/routes/homepage.js', "const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreRouter('api::homepage.homepage');\n");
  server = await startTestServer({ schemaDir: schema.schemaDir });
  const put = await call(server.url, 'PUT', '/api/homepage?status=draft', { headers: server.asAdmin, body: { data: { headline: 'Hello' } } });
  expect(put.status).toBe(200);
});
afterEach(async () => {
  await server.stop();
  schema.remove();
});

const draftHeadline = async () => (await call<{ data: { headline: string } | null }>(server.url, 'GET', '/api/homepage?status=draft', { headers: server.asAdmin })).body.data?.headline ?? null;

test('create with status published is refused while the draft exists, and leaves it alone', async () => {
  const answer = await call<Record<string, unknown>>(server.url, 'GET', '/api/homepage-create-published', { headers: server.asAdmin });
  expect({ answer: answer.body, draft: await draftHeadline() }).toEqual({
    answer: { error: 'ValidationError: api::homepage.homepage is a single type and has its document already: update it instead' },
    draft: 'Hello',
  });
});

test('delete by a documentId that is not the homepage deletes nothing', async () => {
  await call(server.url, 'GET', '/api/homepage-delete-wrong', { headers: server.asAdmin });
  expect(await draftHeadline()).toBe('Hello');
});

test('update by a documentId that is not the homepage answers null and changes nothing', async () => {
  const answer = await call<Record<string, unknown>>(server.url, 'GET', '/api/homepage-update-wrong', { headers: server.asAdmin });
  expect({ answer: answer.body, draft: await draftHeadline() }).toEqual({ answer: { ok: null }, draft: 'Hello' });
});
