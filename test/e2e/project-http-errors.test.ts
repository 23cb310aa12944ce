import { startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';
import { call } from '../auth/http';
import { stderrDuring } from '../support/stderr-lines';

/**
 * `require('@strapi/utils').errors.HttpError` in project code, as Strapi 5 gives it (http-errors
 * 2.0.0's abstract base): what `ctx.throw` makes is one, Strapi's ApplicationErrors are not, and
 * constructing it throws http-errors' TypeError, which Strapi answers with a logged 500.
 */

let schema: SchemaCopy;
let server: TestServer;

let constructing: string;

beforeAll(async () => {
  schema = copyExampleSchema();
  schema.write(
    'middlewares/http-only.js',
    `const { errors } = require('@strapi/utils');
module.exports = () => async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    if (!(error instanceof errors.HttpError)) throw error;
    ctx.body = { caught: { name: error.name, status: error.status, message: error.message, application: error instanceof errors.ApplicationError } };
  }
};
`,
  );
  // the forms Strapi middlewares test a refusal by: instanceof, name, the class's name; a logging one rethrows
  schema.write(
    'middlewares/validation-only.js',
    `const { errors } = require('@strapi/utils');
module.exports = () => async (ctx, next) => {
  try {
    await next();
  } catch (e) {
    if (!(e instanceof errors.ValidationError) || e.name !== 'ValidationError') throw e;
    ctx.status = 422;
    ctx.body = { caught: { ...e }, constructor: e.constructor.name, application: e instanceof errors.ApplicationError };
  }
};
`,
  );
  schema.write('middlewares/log-rethrow.js', `module.exports = (config, { strapi }) => async (ctx, next) => {\n  try {\n    await next();\n  } catch (e) {\n    strapi.log.debug(e.constructor.name + ': ' + e.message);\n    throw e;\n  }\n};\n`);
  constructing = schema.write('middlewares/constructs.js', `const { errors } = require('@strapi/utils');\nmodule.exports = () => async () => {\n  throw new errors.HttpError(404, 'no such page');\n};\n`);
  schema.write(
    'api/article/routes/custom.js',
    `module.exports = { routes: [
      { method: 'GET', path: '/articles-gone', handler: 'article.find', config: { middlewares: ['global::http-only', async (ctx) => ctx.throw(410, 'long gone')] } },
      { method: 'GET', path: '/articles-one/:id', handler: 'article.findOne', config: { middlewares: ['global::http-only'] } },
      { method: 'POST', path: '/articles-plain', handler: 'article.create' },
      { method: 'GET', path: '/articles-plain/:id', handler: 'article.findOne' },
      { method: 'POST', path: '/articles-checked', handler: 'article.create', config: { middlewares: ['global::validation-only'] } },
      { method: 'POST', path: '/articles-logged', handler: 'article.create', config: { middlewares: ['global::log-rethrow'] } },
      { method: 'GET', path: '/articles-logged/:id', handler: 'article.findOne', config: { middlewares: ['global::log-rethrow'] } },
      { method: 'GET', path: '/articles-constructed', handler: 'article.find', config: { middlewares: ['global::constructs'] } },
      { method: 'GET', path: '/articles-traced', handler: 'article.find', config: { middlewares: [async (ctx) => { ctx.set('x-trace-id', 'abc123'); ctx.throw(403, 'not for you'); }] } },
    ] };`,
  );
  server = await startTestServer({ schemaDir: schema.schemaDir });
});
afterAll(async () => {
  await server.stop();
  schema.remove();
});

test("headers set with ctx.set before a throw stay on the error answer, as Strapi's errors middleware keeps them", async () => {
  const refused = await call(server.url, 'GET', '/api/articles-traced', { headers: server.asAdmin });
  expect(refused.status).toBe(403);
  expect(refused.headers.get('x-trace-id')).toBe('abc123');
  expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
  expect(refused.body).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'not for you', details: {} } });
});

test("ctx.throw's error is an errors.HttpError, not an ApplicationError", async () => {
  const caught = await call(server.url, 'GET', '/api/articles-gone', { headers: server.asAdmin });
  expect(caught.status).toBe(200);
  expect(caught.body).toEqual({ caught: { name: 'GoneError', status: 410, message: 'long gone', application: false } });
});

test("a core action's NotFoundError is an ApplicationError, not an HttpError: it passes the middleware and answers its envelope", async () => {
  const missing = await call(server.url, 'GET', '/api/articles-one/no-such-document', { headers: server.asAdmin });
  expect(missing.status).toBe(404);
  expect(missing.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
});

test("new errors.HttpError(...) throws http-errors' TypeError, as in Strapi: a 500, logged with the file", async () => {
  const { result: answer, written } = await stderrDuring(() => call(server.url, 'GET', '/api/articles-constructed', { headers: server.asAdmin }));
  expect(answer.status).toBe(500);
  expect(answer.body).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } });
  const line = written.find((text) => text.startsWith('REST: '));
  expect(line).toContain(constructing);
  expect(line).toContain('TypeError: cannot construct abstract class');
});

test("a core action's ValidationError reaches a middleware as Strapi's: instanceof, name, the class's name, and name, message and details as its own keys", async () => {
  const invalid = { data: { title: null } };
  const direct = await call<{ error: { message: string; details: unknown } }>(server.url, 'POST', '/api/articles-plain', { headers: server.asAdmin, body: invalid });
  expect(direct.status).toBe(400);
  const caught = await call(server.url, 'POST', '/api/articles-checked', { headers: server.asAdmin, body: invalid });
  expect(caught.status).toBe(422);
  expect(caught.body).toEqual({ caught: { name: 'ValidationError', message: direct.body.error.message, details: direct.body.error.details }, constructor: 'ValidationError', application: true });
});

test('a middleware that catches and rethrows keeps the refusal as the content route answers it', async () => {
  const invalid = { data: { title: null } };
  const direct = await call(server.url, 'POST', '/api/articles-plain', { headers: server.asAdmin, body: invalid });
  const logged = await call(server.url, 'POST', '/api/articles-logged', { headers: server.asAdmin, body: invalid });
  expect([logged.status, logged.body]).toEqual([400, direct.body]);
  const missing = await call(server.url, 'GET', '/api/articles-logged/no-such-document', { headers: server.asAdmin });
  expect([missing.status, missing.body]).toEqual([404, (await call(server.url, 'GET', '/api/articles-plain/no-such-document', { headers: server.asAdmin })).body]);
});
