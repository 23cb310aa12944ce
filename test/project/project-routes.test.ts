import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadModels } from '../../src/models/load-models';
import { loadProjectRoutes } from '../../src/project/load-project-routes';
import { loadProjectCode } from '../../src/project/load-project-code';
import type { ProjectRoute } from '../../src/project/route-table';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/**
 * A project's route files resolved into the route table: Strapi's forms are read as Strapi reads
 * them, and whatever Folio cannot serve stops start-up naming the file.
 */

const models = loadModels(EXAMPLE_SCHEMA);
let schemaDir: string;
beforeEach(() => {
  schemaDir = mkdtempSync(join(tmpdir(), 'folio-project-code-'));
});
afterEach(() => rmSync(schemaDir, { recursive: true, force: true }));

const write = (path: string, content: string) => {
  const file = join(schemaDir, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
};
const CORE_ROUTER = (uid: string, options = '') => `const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreRouter('${uid}'${options ? `, ${options}` : ''});\n`;
const refusal = (): string => {
  try {
    loadProjectRoutes(schemaDir, models);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};
const summary = (routes: ProjectRoute[]) => routes.map(({ method, path, action, public: open }) => `${method} ${path} ${action}${open ? ' public' : ''}`);

test("a core router: Strapi's routes of the type, with only, except, prefix and per-action auth", () => {
  write('api/article/routes/article.js', CORE_ROUTER('api::article.article', "{ except: ['delete'], config: { find: { auth: false } } }"));
  write('api/tag/routes/tag.js', CORE_ROUTER('api::tag.tag', "{ only: ['find'], prefix: '/v2' }"));
  write('api/homepage/routes/homepage.js', CORE_ROUTER('api::homepage.homepage'));
  const table = loadProjectRoutes(schemaDir, models);
  expect(summary(table.routes)).toEqual([
    'GET /api/articles find public',
    'GET /api/articles/:id findOne',
    'POST /api/articles create',
    'PUT /api/articles/:id update',
    'GET /api/homepage find',
    'PUT /api/homepage update',
    'DELETE /api/homepage delete',
    'GET /api/v2/tags find',
  ]);
  expect([...table.apis].sort()).toEqual(['article', 'homepage', 'tag']);
});

test("createCoreRouter gives Strapi 5's router: { type, prefix, routes }, routes a getter of the core routes with their config", () => {
  write('api/article/routes/article.js', CORE_ROUTER('api::article.article', "{ except: ['delete'], config: { find: { auth: false }, create: { policies: ['x'] } } }"));
  write('api/tag/routes/tag.js', CORE_ROUTER('api::tag.tag', "{ only: ['findOne'], prefix: '/v2' }"));
  const { routers } = loadProjectCode(schemaDir, models, () => undefined);
  const [article] = routers.get('article') ?? [];
  expect(typeof Object.getOwnPropertyDescriptor(article.value, 'routes')?.get).toBe('function');
  expect(article.value).toEqual({
    type: 'content-api',
    prefix: undefined,
    routes: [
      { method: 'GET', path: '/articles', handler: 'api::article.article.find', config: { auth: false } },
      { method: 'GET', path: '/articles/:id', handler: 'api::article.article.findOne', config: {} },
      { method: 'POST', path: '/articles', handler: 'api::article.article.create', config: { policies: ['x'] } },
      { method: 'PUT', path: '/articles/:id', handler: 'api::article.article.update', config: {} },
    ],
  });
  // one array, as Strapi's getter keeps it
  expect((article.value as { routes: unknown[] }).routes).toBe((article.value as { routes: unknown[] }).routes);
  const [tag] = routers.get('tag') ?? [];
  expect(tag.value).toEqual({ type: 'content-api', prefix: '/v2', routes: [{ method: 'GET', path: '/tags/:id', handler: 'api::tag.tag.findOne', config: {} }] });
});

test('a router building on the core router (its routes read and extended) serves the core routes as core actions, with their config, and its own', () => {
  write('api/article/controllers/article.js', "const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreController('api::article.article', () => ({ async featured() { return []; } }));\n");
  write('policies/open.js', 'module.exports = () => true;');
  write(
    'api/article/routes/article.js',
    `const { factories } = require('@strapi/strapi');
const defaultRouter = factories.createCoreRouter('api::article.article', { only: ['find', 'findOne'], config: { find: { auth: false, policies: ['global::open'] } } });
const customRouter = (innerRouter, extraRoutes = []) => {
  let routes;
  return {
    get prefix() { return innerRouter.prefix; },
    get routes() { if (!routes) routes = innerRouter.routes.concat(extraRoutes); return routes; },
  };
};
module.exports = customRouter(defaultRouter, [{ method: 'GET', path: '/articles/featured', handler: 'article.featured' }]);
`,
  );
  write('api/tag/routes/tag.js', "const { factories } = require('@strapi/strapi');\nmodule.exports = { type: 'content-api', routes: [...factories.createCoreRouter('api::tag.tag', { only: ['find'] }).routes] };\n");
  const { routes } = loadProjectRoutes(schemaDir, models);
  expect(routes.map(({ method, path, action, permission, custom, public: open, policies, controller }) => [method, path, action ?? null, permission, custom, open, policies.map(({ name }) => name), controller?.name ?? null])).toEqual([
    ['GET', '/api/articles', 'find', 'api::article.article.find', false, true, ['global::open'], 'find'],
    ['GET', '/api/articles/:id', 'findOne', 'api::article.article.findOne', false, false, [], 'findOne'],
    ['GET', '/api/articles/featured', null, 'api::article.article.featured', true, false, [], 'featured'],
    ['GET', '/api/tags', 'find', 'api::tag.tag.find', false, false, [], null],
  ]);
});

test("real projects' variants on the core router: getters for all three members, its routes read as a value or a function, custom routes before or after", () => {
  write('api/article/controllers/article.js', "const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreController('api::article.article', () => ({ async top() { return []; } }));\n");
  write(
    'api/article/routes/article.js',
    `const { factories } = require('@strapi/strapi');
const core = factories.createCoreRouter('api::article.article', { only: ['find', 'findOne'] });
module.exports = {
  get prefix() { return core.prefix; },
  get routes() { return [...core.routes, { method: 'GET', path: '/articles-top', handler: 'article.top' }]; },
  get type() { return core.type; },
};
`,
  );
  write(
    'api/tag/routes/tag.ts',
    `import { factories } from '@strapi/strapi';
const defaultRouter = factories.createCoreRouter('api::tag.tag', { only: ['find'] });
const defaultRoutes = typeof defaultRouter.routes === 'function' ? defaultRouter.routes() : defaultRouter.routes;
export default { routes: [...defaultRoutes, { method: 'GET', path: '/tags-count', handler: 'tag.find' }] };
`,
  );
  write(
    'api/category/routes/category.js',
    `const { createCoreRouter } = require('@strapi/strapi').factories;
const defaultRouter = createCoreRouter('api::category.category', { only: ['find'], prefix: '/v2' });
const customRouter = (defaultRouter, customRoutes = []) => {
  let routes;
  return {
    get prefix() { return defaultRouter.prefix; },
    get routes() { if (!routes) routes = customRoutes.concat(defaultRouter.routes); return routes; },
  };
};
module.exports = customRouter(defaultRouter, [{ method: 'GET', path: '/categories/first', handler: 'api::category.category.find' }]);
`,
  );
  expect(loadProjectRoutes(schemaDir, models).routes.map(({ method, path, action, custom, controller }) => [method, path, action ?? null, custom, controller?.name ?? null])).toEqual([
    ['GET', '/api/articles', 'find', false, 'find'],
    ['GET', '/api/articles/:id', 'findOne', false, 'findOne'],
    ['GET', '/api/articles-top', null, true, 'top'],
    ['GET', '/api/v2/categories/first', 'find', true, null],
    ['GET', '/api/v2/categories', 'find', false, null],
    ['GET', '/api/tags', 'find', false, null],
    ['GET', '/api/tags-count', 'find', true, null],
  ]);
});

test('a router of another type, or whose routes are not an array, is refused naming its file', () => {
  const admin = write('api/article/routes/article.js', CORE_ROUTER('api::article.article', "{ type: 'admin' }"));
  const empty = write('api/tag/routes/tag.js', "module.exports = { get routes() { return undefined; } };\n");
  const message = refusal();
  expect(message).toContain(`${admin}: type "admin": Folio serves content-api routers only`);
  expect(message).toContain(`${empty}: a router exports createCoreRouter(...) or { routes: [...] }`);
});

test('a file may declare its own strapi beside the global one', () => {
  write('api/tag/routes/tag.js', "const strapi = require('@strapi/strapi');\nmodule.exports = strapi.factories.createCoreRouter('api::tag.tag', { only: ['find'] });\n");
  expect(summary(loadProjectRoutes(schemaDir, models).routes)).toEqual(['GET /api/tags find']);
});

test('custom routes name core actions by controller name or uid; a default controller names its content-type', () => {
  write('api/article/controllers/post.js', "const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreController('api::article.article');\n");
  write('api/article/services/article.js', "const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreService('api::article.article');\n");
  write(
    'api/article/routes/custom.js',
    `module.exports = { routes: [
      { method: 'GET', path: '/posts/:id', handler: 'post.findOne' },
      { method: 'POST', path: '/articles/publish', handler: 'api::article.article.create', config: { policies: [() => true] } },
    ] };`,
  );
  expect(summary(loadProjectRoutes(schemaDir, models).routes)).toEqual(['GET /api/posts/:id findOne', 'POST /api/articles/publish create']);
});

test('TypeScript files and ES module syntax load through the typescript package', () => {
  write('api/article/routes/article.ts', "import { factories } from '@strapi/strapi';\nexport default factories.createCoreRouter('api::article.article', { only: ['find'], config: { find: { middlewares: ['api::article.typed'] } } });\n");
  write('api/article/middlewares/typed.ts', "import type { Core } from '@strapi/strapi';\nexport default (config: unknown, { strapi }: { strapi: Core.Strapi }) => async (ctx: { query: Record<string, unknown> }, next: () => Promise<void>) => {\n  ctx.query.populate = '*';\n  await next();\n};\n");
  write('api/tag/routes/tag.js', "import { factories } from '@strapi/strapi';\nexport default factories.createCoreRouter('api::tag.tag', { only: ['findOne'] });\n");
  const { routes } = loadProjectRoutes(schemaDir, models);
  expect(summary(routes)).toEqual(['GET /api/articles find', 'GET /api/tags/:id findOne']);
  expect(routes[0].middlewares.map(({ name }) => name)).toEqual(['api::article.typed']);
});

test('what cannot be served stops start-up, every problem with its file', () => {
  const controller = write('api/article/controllers/article.js', 'module.exports = { async hello(ctx) { ctx.body = "hi"; } };\n');
  const service = write('api/tag/services/tag.js', 'module.exports = { findFeatured() { return []; } };\n');
  const requires = write('api/author/routes/author.js', "const { createStrapi } = require('@strapi/strapi');\nmodule.exports = { routes: [] };\n");
  const early = write('api/category/routes/category.js', "strapi.log.info('loading');\nmodule.exports = { routes: [] };\n");
  const message = refusal();
  expect(message).toContain(`${controller}: a controller Folio serves is made by factories.createCoreController(uid, actions?)`);
  expect(message).toContain(`${service}: a custom service is not served by Folio`);
  expect(message).toContain(`${requires}: require('@strapi/strapi').createStrapi is not supported by Folio (it gives factories)`);
  expect(message).toContain(`${early}: strapi.log: not available while Folio loads the project files: use it inside a policy or a middleware`);
});

test.each([
  ['an action its controller lacks', "{ method: 'GET', path: '/articles/featured', handler: 'article.featured' }", /handler "article.featured": "featured" is not a core action of api::article.article .*and its controller has no actions of its own/],
  ['an unknown policy', "{ method: 'GET', path: '/a', handler: 'article.find', config: { policies: ['is-owner'] } }", /the policy "is-owner" is not one of the project's \(none\)/],
  ['a plugin policy', "{ method: 'GET', path: '/a', handler: 'article.find', config: { policies: ['plugin::users-permissions.isAuthenticated'] } }", /the policy "plugin::users-permissions.isAuthenticated" is not one of the project's/],
  ['an unknown middleware', "{ method: 'GET', path: '/a', handler: 'article.find', config: { middlewares: ['strapi::compression'] } }", /the middleware "strapi::compression" is not one of the project's \(none\)/],
  ['an auth scope', "{ method: 'GET', path: '/a', handler: 'article.find', config: { auth: { scope: ['x'] } } }", /config.auth of GET \/a is \{"scope":\["x"\]\}: Folio serves auth: false/],
  ['a handler function', "{ method: 'GET', path: '/a', handler: (ctx) => ctx }", /a handler written as a function is not served: name a controller action/],
  ['a wildcard path', "{ method: 'GET', path: '/a/(.*)', handler: 'article.find' }", /the segment "\(\.\*\)" is not served/],
  ['a plugin handler', "{ method: 'GET', path: '/a', handler: 'plugin::users-permissions.user.find' }", /names no controller of the project's content-types/],
])('a route with %s is refused naming its file', (_, route, expected) => {
  const file = write('api/article/routes/custom.js', `module.exports = { routes: [${route}] };`);
  const message = refusal();
  expect(message).toContain(`${file}: `);
  expect(message).toMatch(expected);
});

test("a controller with actions of its own: routes run them, with the permission Strapi scopes them by", () => {
  write('api/article/controllers/article.js', "const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreController('api::article.article', ({ strapi }) => ({ async find(ctx) { return super.find(ctx); }, async featured(ctx) { return []; } }));\n");
  write('api/article/routes/article.js', CORE_ROUTER('api::article.article', "{ only: ['find', 'findOne'] }"));
  write('api/article/routes/custom.js', "module.exports = { routes: [{ method: 'GET', path: '/articles-featured', handler: 'article.featured' }] };");
  const table = loadProjectRoutes(schemaDir, models);
  expect(table.routes.map(({ path, action, permission, controller }) => [path, action ?? null, permission, controller?.name ?? null])).toEqual([
    ['/api/articles', 'find', 'api::article.article.find', 'find'],
    ['/api/articles/:id', 'findOne', 'api::article.article.findOne', 'findOne'],
    ['/api/articles-featured', null, 'api::article.article.featured', 'featured'],
  ]);
  expect(table.permissions).toEqual(['api::article.article.featured']);
});

test('two routes on one path: the second file is named with the first', () => {
  const core = write('api/article/routes/article.js', CORE_ROUTER('api::article.article'));
  const custom = write('api/article/routes/zz-custom.js', "module.exports = { routes: [{ method: 'GET', path: '/articles/:slug', handler: 'article.findOne' }] };");
  expect(refusal()).toContain(`${custom}: GET /api/articles/:slug is also routed by ${core} (GET /api/articles/:id)`);
});

test('only, except and config naming what is not a core action of the type: ignored as in Strapi, with a warning', () => {
  const file = write('api/homepage/routes/homepage.js', CORE_ROUTER('api::homepage.homepage', "{ only: ['find', 'findOne'], config: { findOne: { auth: false } } }"));
  const warnings: string[] = [];
  expect(summary(loadProjectRoutes(schemaDir, models, (line) => warnings.push(line)).routes)).toEqual(['GET /api/homepage find']);
  expect(warnings).toEqual([
    `folio: ${file}: only names "findOne", not a core action of api::homepage.homepage (find, update, delete): ignored, as Strapi ignores it`,
    `folio: ${file}: config names "findOne", not a core action of api::homepage.homepage (find, update, delete): ignored, as Strapi ignores it`,
  ]);
  write('api/tag/routes/tag.js', CORE_ROUTER('api::tag.tag', "{ only: 'find' }"));
  expect(refusal()).toContain('only must be an array of core actions (find, findOne, create, update, delete)');
});

test('a policy and a middleware are found in the route’s API, globally, and with their config', () => {
  write('api/article/policies/is-editor.js', 'module.exports = () => true;');
  write('policies/open.js', 'module.exports = { name: "open", handler: () => true, validator: (config) => { if (config.level === undefined) throw new Error("level is required"); } };');
  write('middlewares/timing.js', 'module.exports = (config) => async (ctx, next) => next();');
  write(
    'api/article/routes/article.js',
    CORE_ROUTER('api::article.article', "{ only: ['find'], config: { find: { policies: ['is-editor', { name: 'global::open', config: { level: 2 } }], middlewares: [{ name: 'global::timing', config: { slow: 5 } }] } } }"),
  );
  const [route] = loadProjectRoutes(schemaDir, models).routes;
  expect(route.policies.map(({ name, config }) => [name, config])).toEqual([
    ['is-editor', {}],
    ['global::open', { level: 2 }],
  ]);
  expect(route.middlewares.map((middleware) => [middleware.name, 'config' in middleware ? middleware.config : undefined])).toEqual([['global::timing', { slow: 5 }]]);
});

test('a syntax error in a JavaScript project file is named with its line', () => {
  write('api/article/routes/custom.js', "module.exports = {\n  routes: [\n    { method: 'GET' path: '/x', handler: 'article.find' },\n  ],\n};\n");
  expect(refusal()).toMatch(/api\/article\/routes\/custom\.js:3\b/);
});
