import { startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';
import { call, type RestError } from '../auth/http';
import { startupFailure } from '../support/startup-failure';
import { stderrDuring } from '../support/stderr-lines';

/**
 * A single type's controller has Strapi's core actions of a single type (find, update, delete) and
 * no findOne or create: a route or a routed action's source naming them stops start-up with the
 * file, and code reaching them another way finds them absent, as in Strapi.
 */

const CONTROLLER = (actions: string) => `const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreController('api::homepage.homepage', ({ strapi }) => ({\n${actions}\n}));\n`;
const ROUTES = (routes: string) => `module.exports = { routes: [\n${routes}\n] };\n`;

let schema: SchemaCopy;
beforeEach(() => {
  schema = copyExampleSchema();
});
afterEach(() => schema.remove());

test('a routed action calling super.findOne or this.create stops start-up naming the file and the action', async () => {
  const controller = schema.write(
    'api/homepage/controllers/homepage.js',
    CONTROLLER(`
  async one(ctx) { return super.findOne(ctx); },
  async made(ctx) { return this.create(ctx); },
  // the single type's own core action: fine
  async headline(ctx) { const { data } = await super.find(ctx); return { data: data.headline }; },`),
  );
  schema.write(
    'api/homepage/routes/custom.js',
    ROUTES(`{ method: 'GET', path: '/homepage-one', handler: 'homepage.one' },
      { method: 'POST', path: '/homepage-made', handler: 'homepage.made' },
      { method: 'GET', path: '/homepage-headline', handler: 'homepage.headline' },`),
  );
  const message = await startupFailure({ schemaDir: schema.schemaDir });
  expect(message).toContain(`${controller}: the action "one" calls findOne, which the controller of the single type api::homepage.homepage does not have (a single type's core actions are find, update, delete`);
  expect(message).toContain(`${controller}: the action "made" calls create, which the controller of the single type api::homepage.homepage does not have`);
  expect(message).not.toContain('"headline"');
  expect(message).not.toContain('switched off');
});

test('a route naming findOne of a single type with a controller of its own stops start-up', async () => {
  const controller = schema.write('api/homepage/controllers/homepage.js', CONTROLLER('  async headline() { return { data: null }; },'));
  schema.write('api/homepage/routes/custom.js', ROUTES(`{ method: 'GET', path: '/homepage/:id', handler: 'homepage.findOne' },`));
  expect(await startupFailure({ schemaDir: schema.schemaDir })).toContain(`${controller}: the controller api::homepage.homepage has no action "findOne"`);
});

describe('calls start-up cannot see', () => {
  let server: TestServer;
  let controller: string;
  beforeEach(async () => {
    controller = schema.write(
      'api/homepage/controllers/homepage.js',
      CONTROLLER(`
  async probe() {
    return { findOne: typeof this.findOne, create: typeof this.create, find: typeof this.find, hasFindOne: 'findOne' in this };
  },
  async computed(ctx) {
    const name = ['findOne'][0];
    return this[name](ctx);
  },
  async documents(ctx) {
    const homepage = strapi.documents('api::homepage.homepage');
    const [first] = await homepage.findMany();
    return {
      many: await homepage.findMany(),
      count: await homepage.count(),
      first: (await homepage.findFirst())?.headline ?? null,
      one: first ? (await homepage.findOne({ documentId: first.documentId }))?.headline ?? null : null,
      other: await homepage.findOne({ documentId: 'abc' }),
    };
  },
  async made() {
    return strapi.documents('api::homepage.homepage').create({ data: { headline: 'x' } });
  },`),
    );
    schema.write(
      'api/homepage/routes/custom.js',
      ROUTES(`{ method: 'GET', path: '/homepage-probe', handler: 'homepage.probe' },
        { method: 'GET', path: '/homepage-computed', handler: 'homepage.computed' },
        { method: 'GET', path: '/homepage-documents', handler: 'homepage.documents' },
        { method: 'GET', path: '/homepage-made', handler: 'homepage.made' },`),
    );
    // the core routes, which a routes folder without its core router would not have (as in Strapi)
    schema.write('api/homepage/routes/homepage.js', "const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreRouter('api::homepage.homepage');\n");
    server = await startTestServer({ schemaDir: schema.schemaDir });
  });
  afterEach(() => server.stop());

  test('this.findOne and this.create are undefined, as on Strapi\'s single type controller', async () => {
    const probe = await call(server.url, 'GET', '/api/homepage-probe', { headers: server.asAdmin });
    expect(probe.body).toEqual({ findOne: 'undefined', create: 'undefined', find: 'function', hasFindOne: false });
  });

  test("calling one by a computed name is Strapi's TypeError: a 500, logged with the controller's file", async () => {
    const { result: answer, written } = await stderrDuring(() => call(server.url, 'GET', '/api/homepage-computed', { headers: server.asAdmin }));
    expect(answer.status).toBe(500);
    const line = written.find((text) => text.startsWith('REST: '));
    expect(line).toContain(controller);
    expect(line).toContain('TypeError: this[name] is not a function');
  });

  test("strapi.documents(uid) of a single type lists its one document, as Strapi's Document Service does", async () => {
    const empty = await call<Record<string, unknown>>(server.url, 'GET', '/api/homepage-documents', { headers: server.asAdmin });
    expect(empty.body).toEqual({ many: [], count: 0, first: null, one: null, other: null });
    const put = await call(server.url, 'PUT', '/api/homepage', { headers: server.asAdmin, body: { data: { headline: 'Hello' } } });
    expect(put.status).toBe(200);
    const answer = await call<{ many: Array<{ headline: string }>; count: number; first: string; one: string; other: unknown }>(server.url, 'GET', '/api/homepage-documents', {
      headers: server.asAdmin,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.many.map((document) => document.headline)).toEqual(['Hello']);
    expect(answer.body).toMatchObject({ count: 1, first: 'Hello', one: 'Hello', other: null });
  });

  test("strapi.documents(uid).create of a single type creates its document, and refuses a second one", async () => {
    const made = await call<{ headline: string; documentId: string }>(server.url, 'GET', '/api/homepage-made', { headers: server.asAdmin });
    expect(made.status).toBe(200);
    expect(made.body.headline).toBe('x');
    const listed = await call<{ many: Array<{ documentId: string }>; count: number }>(server.url, 'GET', '/api/homepage-documents', { headers: server.asAdmin });
    expect(listed.body.count).toBe(1);
    expect(listed.body.many[0].documentId).toBe(made.body.documentId);
    const again = await call<RestError>(server.url, 'GET', '/api/homepage-made', { headers: server.asAdmin });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ name: 'ValidationError', message: 'api::homepage.homepage is a single type and has its document already: update it instead' });
  });
});
