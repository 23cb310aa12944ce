import { startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';
import { call } from '../auth/http';
import { startupFailure } from '../support/startup-failure';

/**
 * A core action the Shadow CRUD configuration switches off has no GraphQL operation, so Folio cannot
 * run it for project code either: a controller action written to call it (`super.find(ctx)`) stops
 * start-up naming the file and the action; a call start-up cannot see (through strapi.documents)
 * throws Strapi's NotImplementedError, a 501: the route's method is served, so not a 405, and never a 500.
 */

const SWITCHED_OFF = "module.exports = { shadowCRUD: { 'api::category.category': { disableActions: ['find'] } } };\n";
const CONTROLLER = (actions: string) => `const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreController('api::category.category', ({ strapi }) => ({\n${actions}\n}));\n`;

let schema: SchemaCopy;
beforeEach(() => {
  schema = copyExampleSchema();
});
afterEach(() => schema.remove());

test('a routed controller action calling a switched-off core action, through super or this, stops start-up naming the file and the action', async () => {
  schema.write('extensions/switched-off.js', SWITCHED_OFF);
  const controller = schema.write(
    'api/category/controllers/category.js',
    CONTROLLER(`
  async names(ctx) {
    const { data } = await this.listed(ctx);
    return { data: data.map(({ name }) => name) };
  },
  // through an action of its own, which calls the core find
  async listed(ctx) { return super.find(ctx); },
  async counted(ctx) { const { meta } = await this.find(ctx); return meta; },
  // not routed: left alone
  async unused(ctx) { return super.find(ctx); },`),
  );
  schema.write(
    'api/category/routes/custom.js',
    `module.exports = { routes: [
      { method: 'GET', path: '/category-names', handler: 'category.names' },
      { method: 'GET', path: '/category-count', handler: 'category.counted' },
    ] };`,
  );
  const message = await startupFailure({ schemaDir: schema.schemaDir });
  expect(message).toContain(`${controller}: the action "names" calls the core action find of api::category.category, which the Shadow CRUD configuration switches off`);
  expect(message).toContain(`${controller}: the action "counted" calls the core action find of api::category.category`);
  expect(message).not.toContain('"unused"');
});

test("strapi.documents('<uid>') calling a switched-off core action, in a routed controller action, policy or middleware, stops start-up naming each file", async () => {
  schema.write('extensions/switched-off.js', "module.exports = { shadowCRUD: { 'api::category.category': { disableActions: ['create'] }, 'api::tag.tag': { disableQueries: true } } };\n");
  const controller = schema.write(
    'api/category/controllers/category.js',
    CONTROLLER(`
  async add(ctx) {
    return this.stored(ctx.request.body.name);
  },
  // through an action of its own
  async stored(name) {
    return { data: await strapi.documents("api::category.category").create({ data: { name } }) };
  },
  // served: find is on
  async names() {
    return { data: await strapi.documents('api::category.category').findMany() };
  },
  // not routed: left alone
  async unused() { return strapi.documents('api::tag.tag').findMany(); },`),
  );
  const policy = schema.write('policies/has-tags.js', `module.exports = async (policyContext, config, { strapi }) => (await strapi.documents('api::tag.tag').count()) > 0;\n`);
  const middleware = schema.write(
    'middlewares/first-tag.js',
    `module.exports = (config, { strapi }) => async (ctx, next) => {\n  ctx.state.tag = await strapi.documents('api::tag.tag')\n    .findFirst();\n  await next();\n};\n`,
  );
  const routes = schema.write(
    'api/category/routes/custom.js',
    `module.exports = { routes: [
      { method: 'POST', path: '/category-add', handler: 'category.add' },
      { method: 'GET', path: '/category-names', handler: 'category.names', config: { policies: ['global::has-tags'], middlewares: ['global::first-tag', async (ctx, next) => { await strapi.documents('api::tag.tag').findOne({ documentId: 'x' }); await next(); }] } },
    ] };`,
  );
  const message = await startupFailure({ schemaDir: schema.schemaDir });
  expect(message).toContain(
    `${controller}: the action "add" calls strapi.documents('api::category.category').create, which runs the core action create of api::category.category, switched off by the Shadow CRUD configuration`,
  );
  expect(message).toContain(`${policy}: the policy "global::has-tags" calls strapi.documents('api::tag.tag').count, which runs the core action find of api::tag.tag`);
  expect(message).toContain(`${middleware}: the middleware "global::first-tag" calls strapi.documents('api::tag.tag').findFirst, which runs the core action find of api::tag.tag`);
  expect(message).toContain(`${routes}: the inline middleware of GET /api/category-names calls strapi.documents('api::tag.tag').findOne, which runs the core action findOne of api::tag.tag`);
  expect(message).not.toContain('"names"');
  expect(message).not.toContain('"unused"');
});

describe('a call start-up cannot see', () => {
  let server: TestServer;
  beforeEach(async () => {
    schema.write('extensions/switched-off.js', SWITCHED_OFF);
    schema.write(
      'api/category/controllers/category.js',
      CONTROLLER(`
  // a uid held in a variable: start-up does not read it
  async names() {
    const uid = 'api::category.category';
    const categories = await strapi.documents(uid).findMany({ fields: ['name'] });
    return { data: categories.map(({ name }) => name) };
  },
  // a core action by a computed name
  async counted(ctx) {
    const action = ['find'][0];
    const { meta } = await this[action](ctx);
    return meta;
  },`),
    );
    schema.write(
      'middlewares/refusal-status.js',
      `const { errors } = require('@strapi/utils');
module.exports = () => async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    ctx.body = { caught: { name: error.name, notImplemented: error instanceof errors.NotImplementedError } };
  }
};
`,
    );
    schema.write(
      'api/category/routes/custom.js',
      `module.exports = { routes: [
        { method: 'GET', path: '/category-names', handler: 'category.names' },
        { method: 'GET', path: '/category-names-caught', handler: 'category.names', config: { middlewares: ['global::refusal-status'] } },
        { method: 'GET', path: '/category-count', handler: 'category.counted' },
      ] };`,
    );
    server = await startTestServer({ schemaDir: schema.schemaDir });
  });
  afterEach(() => server.stop());

  test("answers Strapi's 501 NotImplementedError, without an Allow header, and reaches a middleware as that class", async () => {
    const refused = await call(server.url, 'GET', '/api/category-names', { headers: server.asAdmin });
    expect(refused.status).toBe(501);
    expect(refused.body).toEqual({
      data: null,
      error: {
        status: 501,
        name: 'NotImplementedError',
        message: 'The find action of api::category.category is switched off by the Shadow CRUD configuration: Folio runs a core action through its GraphQL operation, so project code cannot call it',
        details: { uid: 'api::category.category', action: 'find' },
      },
    });
    expect(refused.headers.get('allow')).toBeNull();
    const caught = await call(server.url, 'GET', '/api/category-names-caught', { headers: server.asAdmin });
    expect(caught.body).toEqual({ caught: { name: 'NotImplementedError', notImplemented: true } });
    const counted = await call(server.url, 'GET', '/api/category-count', { headers: server.asAdmin });
    expect(counted.status).toBe(501);
    expect(counted.body).toMatchObject({ error: { name: 'NotImplementedError', details: { uid: 'api::category.category', action: 'find' } } });
    expect(counted.headers.get('allow')).toBeNull();
  });
});
