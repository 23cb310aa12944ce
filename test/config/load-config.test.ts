import { join } from 'node:path';
import { defaultConfig } from '../../src/config/defaults';
import { loadConfig } from '../../src/config/load-config';
import { configErrorLines, loadFrom, writeConfigDir } from './config-dir';

describe('defaults', () => {
  test('a missing config folder gives every default', () => {
    const config = loadConfig({ configDir: join(writeConfigDir({}), 'missing'), env: {} });
    expect(config).toEqual({ ...defaultConfig(), sources: expect.any(Object) });
    expect(config).toMatchObject({
      env: 'development',
      server: { host: '127.0.0.1', port: 1337, proxy: false, maxHeaderSize: 16384, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 },
      graphql: { enabled: true, endpoint: '/graphql', shadowCRUD: true, playgroundAlways: false, depthLimit: 10, amountLimit: 100, defaultLimit: 10, maxLimit: 100, yoga: {} },
      i18n: { locales: ['en'], defaultLocale: 'en' },
      usersPermissions: { jwt: { expiresIn: '30d' }, roles: {}, rateLimit: { max: 20, windowMs: 60000 } },
      upload: { sizeLimit: 200 * 1024 * 1024, allowedTypes: [], directory: 'uploads' },
      rest: { defaultLimit: 25, maxLimit: 100, bodyLimit: 1024 * 1024 },
      database: { client: 'embedded', options: {} },
      admin: { apiTokens: [] },
    });
    expect(config.graphql.introspection).toBeUndefined();
    expect(config.usersPermissions.jwtSecret).toBeUndefined();
  });

  test('an empty config folder gives every default', () => {
    expect(loadFrom({})).toEqual({ ...defaultConfig(), sources: expect.any(Object) });
  });

  test('env is NODE_ENV', () => {
    expect(loadFrom({}, { env: { NODE_ENV: 'production' } }).env).toBe('production');
  });

  test('unset keys keep their defaults next to set ones', () => {
    const config = loadFrom({ 'plugins.json': { graphql: { config: { depthLimit: 7 } }, 'users-permissions': { config: { rateLimit: { max: 5 } } } } });
    expect(config.graphql).toEqual({ ...defaultConfig().graphql, depthLimit: 7 });
    expect(config.usersPermissions.rateLimit).toEqual({ max: 5, windowMs: 60000 });
  });
});

describe('file formats', () => {
  const plugins = {
    graphql: { enabled: true, config: { endpoint: '/gql', shadowCRUD: false, playgroundAlways: true, amountLimit: 50, yoga: { maskedErrors: false } } },
    i18n: { config: { locales: ['en', 'fr'], defaultLocale: 'fr' } },
    'users-permissions': { config: { jwtSecret: 's3cret', jwt: { expiresIn: '7d' }, roles: { public: { permissions: ['api::article.article.find'] } } } },
    upload: { config: { sizeLimit: 1000, allowedTypes: ['image/png', 'image/*'], directory: 'files', breakpoints: { xlarge: 1920, small: 400 } } },
  };

  test('.json files', () => {
    const config = loadFrom({
      'plugins.json': plugins,
      'api.json': { rest: { defaultLimit: 5, maxLimit: 50, bodyLimit: 2048, strictQuery: false } },
      'server.json': { host: '0.0.0.0', port: 8080 },
      'database.json': { client: 'mongodb', uri: 'mongodb://localhost:27017/folio', options: { maxPoolSize: 5 } },
      'admin.json': { apiTokens: [{ name: 'ci', type: 'read-only', accessKey: 'k'.repeat(32) }], apiToken: { salt: 'pepper' } },
    });
    expect(config.graphql).toMatchObject({ endpoint: '/gql', shadowCRUD: false, playgroundAlways: true, amountLimit: 50, yoga: { maskedErrors: false } });
    expect(config.i18n).toEqual({ locales: ['en', 'fr'], defaultLocale: 'fr' });
    expect(config.usersPermissions).toEqual({
      jwtSecret: 's3cret',
      jwt: { expiresIn: '7d' },
      roles: { public: { permissions: ['api::article.article.find'] } },
      rateLimit: { max: 20, windowMs: 60000 },
      emailConfirmation: false,
      emailTemplates: defaultConfig().usersPermissions.emailTemplates,
    });
    expect(config.upload).toEqual({ provider: 'gridfs', sizeLimit: 1000, allowedTypes: ['image/png', 'image/*'], directory: 'files', breakpoints: { xlarge: 1920, small: 400 } });
    expect(config.rest).toEqual({ defaultLimit: 5, maxLimit: 50, bodyLimit: 2048, strictQuery: false, maxPopulateDepth: 10 });
    expect(config.server).toEqual({ host: '0.0.0.0', port: 8080, proxy: false, maxHeaderSize: 16384, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 });
    expect(config.database).toEqual({ client: 'mongodb', uri: 'mongodb://localhost:27017/folio', options: { maxPoolSize: 5 } });
    expect(config.admin).toEqual({ apiTokens: [{ name: 'ci', type: 'read-only', accessKey: 'k'.repeat(32) }], apiTokenSalt: 'pepper' });
  });

  test('.js files exporting an object', () => {
    const config = loadFrom({ 'plugins.js': `module.exports = ${JSON.stringify(plugins)};`, 'server.js': 'module.exports = { port: 4000 };' });
    expect(config.graphql.endpoint).toBe('/gql');
    expect(config.server.port).toBe(4000);
  });

  test('.js files exporting a function of env, with Strapi\'s env helpers', () => {
    const env = { GQL_DEPTH: '12', PLAYGROUND: 'true', LOCALES: '[en, "de"]', YOGA: '{"maskedErrors":false}', LIMIT: '30', RATE: '2.9' };
    const config = loadFrom(
      {
        'server.js': "module.exports = ({ env }) => ({ host: env('HOST_NAME', '0.0.0.0'), port: env.int('APP_PORT', 1400) });",
        'plugins.js': `module.exports = ({ env }) => ({
          graphql: { config: {
            depthLimit: env.int('GQL_DEPTH', 10),
            playgroundAlways: env.bool('PLAYGROUND', false),
            shadowCRUD: env.bool('SHADOW', true),
            yoga: env.json('YOGA', {}),
            introspection: env.bool('INTROSPECTION'),
          } },
          i18n: { config: { locales: env.array('LOCALES'), defaultLocale: env('DEFAULT_LOCALE', 'de') } },
          'users-permissions': { config: { rateLimit: { max: Math.round(env.float('RATE', 1)) } } },
        });`,
        'api.js': "module.exports = ({ env }) => ({ rest: { defaultLimit: env.int('LIMIT') } });",
      },
      { env },
    );
    expect(config.server).toEqual({ host: '0.0.0.0', port: 1400, proxy: false, maxHeaderSize: 16384, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 });
    expect(config.graphql).toMatchObject({ depthLimit: 12, playgroundAlways: true, shadowCRUD: true, yoga: { maskedErrors: false } });
    expect(config.graphql).not.toHaveProperty('introspection');
    expect(config.i18n).toEqual({ locales: ['en', 'de'], defaultLocale: 'de' });
    expect(config.usersPermissions.rateLimit.max).toBe(3);
    expect(config.rest.defaultLimit).toBe(30);
  });

  test('.js files compiled from ES modules export under default', () => {
    const config = loadFrom({ 'server.js': 'exports.__esModule = true; exports.default = ({ env }) => ({ port: env.int("P", 2500) });' });
    expect(config.server.port).toBe(2500);
  });

  test('both .json and .js for the same name is an error', () => {
    expect(configErrorLines({ 'api.json': {}, 'api.js': 'module.exports = {};' })).toEqual([
      'config/api.json and config/api.js: both exist; keep one api file',
    ]);
  });

  test('invalid JSON names the file and the parser message', () => {
    const [line] = configErrorLines({ 'server.json': '{ "port": 1337, }' });
    expect(line).toMatch(/^config\/server\.json: could not be read: .*JSON/);
  });

  test('a .js file that throws names the file and the error', () => {
    expect(configErrorLines({ 'server.js': "throw new Error('boom');" })).toEqual(['config/server.js: could not be read: boom']);
    expect(configErrorLines({ 'plugins.js': "module.exports = ({ env }) => ({ graphql: { yoga: env.json('Y') } });" }, { env: { Y: '{oops' } })[0]).toMatch(
      /^config\/plugins\.js: could not be read: environment variable Y is not valid JSON/,
    );
  });

  test('a file must give an object', () => {
    expect(configErrorLines({ 'server.json': '[1]' })).toEqual(['config/server.json: must hold a JSON object']);
    expect(configErrorLines({ 'server.js': 'module.exports = async () => ({ port: 1 });' })).toEqual([
      'config/server.js: must export an object or a function returning one (synchronously)',
    ]);
  });
});

describe('precedence', () => {
  const files = { 'server.json': { host: 'file-host', port: 2000 } };

  test('command-line overrides > PORT/HOST > server file > defaults', () => {
    const env = { PORT: '3000', HOST: 'env-host' };
    expect(loadFrom({}).server).toEqual({ host: '127.0.0.1', port: 1337, proxy: false, maxHeaderSize: 16384, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 });
    expect(loadFrom(files).server).toEqual({ host: 'file-host', port: 2000, proxy: false, maxHeaderSize: 16384, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 });
    expect(loadFrom(files, { env }).server).toEqual({ host: 'env-host', port: 3000, proxy: false, maxHeaderSize: 16384, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 });
    expect(loadFrom(files, { env, overrides: { port: 4000 } }).server).toEqual({ host: 'env-host', port: 4000, proxy: false, maxHeaderSize: 16384, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 });
    expect(loadFrom(files, { env, overrides: { host: '::1', port: 0 } }).server).toEqual({ host: '::1', port: 0, proxy: false, maxHeaderSize: 16384, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 });
  });

  test('workers: --workers > FOLIO_WORKERS > server file > "auto"; a bad count is an error', () => {
    const withWorkers = { 'server.json': { workers: 3 } };
    expect(loadFrom(withWorkers).server.workers).toBe(3);
    expect(loadFrom(withWorkers, { env: { FOLIO_WORKERS: 'auto' } }).server.workers).toBe('auto');
    expect(loadFrom(withWorkers, { env: { FOLIO_WORKERS: '2' }, overrides: { workers: 1 } }).server.workers).toBe(1);
    expect(() => loadFrom({}, { env: { FOLIO_WORKERS: '0' } })).toThrow('env FOLIO_WORKERS: must be "auto" or an integer from 1 to 256, got "0"');
    expect(() => loadFrom({ 'server.json': { workers: 'many' } })).toThrow(/workers/);
  });

  test('heapGrowingPercent: FOLIO_HEAP_GROWING_PERCENT > server file > 0, V8\'s own policy; a bad value is an error', () => {
    expect(loadFrom({ 'server.json': { heapGrowingPercent: 50 } }).server.heapGrowingPercent).toBe(50);
    expect(loadFrom({ 'server.json': { heapGrowingPercent: 50 } }, { env: { FOLIO_HEAP_GROWING_PERCENT: '0' } }).server.heapGrowingPercent).toBe(0);
    expect(configErrorLines({}, { env: { FOLIO_HEAP_GROWING_PERCENT: 'lots' } })).toEqual(['env FOLIO_HEAP_GROWING_PERCENT: must be an integer from 0 to 400, got "lots"']);
    expect(() => loadFrom({ 'server.json': { heapGrowingPercent: -1 } })).toThrow(/heapGrowingPercent/);
  });

  test('softMemoryLimit: FOLIO_SOFT_MEMORY_LIMIT > server file > 512 MiB; false turns it off; a bad value is an error', () => {
    expect(loadFrom({ 'server.json': { softMemoryLimit: 2 ** 30 } }).server.softMemoryLimit).toBe(2 ** 30);
    expect(loadFrom({ 'server.json': { softMemoryLimit: false } }).server.softMemoryLimit).toBe(false);
    expect(loadFrom({ 'server.json': { softMemoryLimit: 2 ** 30 } }, { env: { FOLIO_SOFT_MEMORY_LIMIT: '300000000' } }).server.softMemoryLimit).toBe(300_000_000);
    expect(loadFrom({}, { env: { FOLIO_SOFT_MEMORY_LIMIT: 'false' } }).server.softMemoryLimit).toBe(false);
    expect(configErrorLines({}, { env: { FOLIO_SOFT_MEMORY_LIMIT: '512MB' } })).toEqual(['env FOLIO_SOFT_MEMORY_LIMIT: must be a number of bytes or "false", got "512MB"']);
    expect(() => loadFrom({ 'server.json': { softMemoryLimit: 0 } })).toThrow(/softMemoryLimit/);
  });

  test('a bad PORT or port flag is an error', () => {
    expect(configErrorLines({}, { env: { PORT: 'http' } })).toEqual(['env PORT: must be an integer from 0 to 65535 (0 picks a free port), got "http"']);
    expect(configErrorLines({}, { overrides: { port: 70000 } })).toEqual(['--port: must be an integer from 0 to 65535 (0 picks a free port), got 70000']);
    expect(configErrorLines({ 'server.json': { port: '1337' } })).toEqual(['config/server.json: port must be an integer from 0 to 65535, got "1337"']);
  });

  test('JWT_SECRET fills jwtSecret when the file does not set it', () => {
    expect(loadFrom({}, { env: { JWT_SECRET: 'from-env' } }).usersPermissions.jwtSecret).toBe('from-env');
    const files = { 'plugins.json': { 'users-permissions': { config: { jwtSecret: 'from-file' } } } };
    expect(loadFrom(files, { env: { JWT_SECRET: 'from-env' } }).usersPermissions.jwtSecret).toBe('from-file');
  });
});

describe('DATABASE_URL', () => {
  test.each(['mongodb://user:pw@db:27017/folio', 'mongodb+srv://cluster0.example.net/folio'])('%s selects mongodb', (url) => {
    const config = loadFrom({ 'database.json': { client: 'embedded', options: { tls: true } } }, { env: { DATABASE_URL: url } });
    expect(config.database).toEqual({ client: 'mongodb', uri: url, options: { tls: true } });
  });

  test('other URLs are an error that does not echo the URL', () => {
    const lines = configErrorLines({}, { env: { DATABASE_URL: 'postgres://user:hunter2@db/app' } });
    expect(lines).toEqual(['env DATABASE_URL: must be a mongodb:// or mongodb+srv:// URL (Folio stores content in its embedded store or in MongoDB)']);
  });

  test('the database file needs a uri for mongodb and none for embedded', () => {
    expect(configErrorLines({ 'database.json': { client: 'mongodb' } })).toEqual([
      'config/database.json: uri is required when client is "mongodb" (or set DATABASE_URL)',
    ]);
    expect(configErrorLines({ 'database.json': { uri: 'mongodb://db/folio' } })).toEqual(['config/database.json: uri only applies to client "mongodb"']);
    expect(configErrorLines({ 'database.json': { client: 'mongodb', uri: 'mysql://root:pw@db' } })).toEqual([
      'config/database.json: uri must be a mongodb:// or mongodb+srv:// URL',
    ]);
  });

  test("Strapi's connection shape is explained", () => {
    const [line] = configErrorLines({ 'database.js': "module.exports = { connection: { client: 'sqlite' } };" });
    expect(line).toMatch(/^config\/database\.js: connection is Strapi's SQL connection shape, which Folio does not use/);
  });
});

describe('apolloServer alias', () => {
  test('introspection maps onto graphql.introspection; cache, tracing and persistedQueries are accepted and ignored', () => {
    const config = loadFrom({
      'plugins.json': { graphql: { config: { apolloServer: { introspection: true, tracing: false, cache: 'bounded', persistedQueries: { ttl: 900 } } } } },
    });
    expect(config.graphql.introspection).toBe(true);
    expect(config.graphql).not.toHaveProperty('apolloServer');
    expect(config.graphql.yoga).toEqual({});
  });

  test('options without a graphql-yoga equivalent are errors', () => {
    expect(configErrorLines({ 'plugins.json': { graphql: { config: { apolloServer: { formatError: 'x' } } } } })).toEqual([
      'config/plugins.json: graphql.config.apolloServer.formatError has no graphql-yoga equivalent; put graphql-yoga options in graphql.config.yoga',
    ]);
  });

  test('a contradiction with graphql.config.introspection is an error', () => {
    expect(configErrorLines({ 'plugins.json': { graphql: { config: { introspection: false, apolloServer: { introspection: true } } } } })).toEqual([
      'config/plugins.json: graphql.config.apolloServer.introspection contradicts graphql.config.introspection; keep one',
    ]);
  });
});

describe('misspelled and wrongly typed keys', () => {
  test('a protection is a positive integer or false (off)', () => {
    expect(loadFrom({ 'plugins.json': { graphql: { config: { depthLimit: false, maxCost: 10 } } } }).graphql).toMatchObject({ depthLimit: false, maxCost: 10 });
    expect(configErrorLines({ 'plugins.json': { graphql: { config: { depthLimit: 0 } } } })).toEqual([
      'config/plugins.json: graphql.config.depthLimit must be a positive integer, or false to turn it off, got 0',
    ]);
  });

  test("a near miss of a plugin Folio serves is a typo; other plugins' settings are left alone", () => {
    expect(configErrorLines({ 'plugins.json': { grapql: { config: {} }, 'strapi-plugin-sitemap': { enabled: true } } })).toEqual([
      'config/plugins.json: grapql is not a known option (did you mean graphql?)',
    ]);
  });

  test("graphql-yoga options are checked: an unknown one is named, Folio's own say where they are set, plugins must be objects", () => {
    expect(configErrorLines({ 'plugins.json': { graphql: { config: { yoga: { maskedError: false, cors: {}, plugins: ['x'] } } } } })).toEqual([
      'config/plugins.json: graphql.config.yoga.maskedError is not a known option (did you mean maskedErrors?)',
      'config/plugins.json: graphql.config.yoga.cors is set in config/middlewares (strapi::cors), for every route at once',
      'config/plugins.json: graphql.config.yoga.plugins[0] must be an object, got "x"',
    ]);
  });

  test('a misspelled key is named with its path and the likely intended key', () => {
    expect(configErrorLines({ 'plugins.json': { graphql: { config: { depthLimt: 7 } } } })).toEqual([
      'config/plugins.json: graphql.config.depthLimt is not a known option (did you mean depthLimit?)',
    ]);
    expect(configErrorLines({ 'plugins.json': { 'users-permissions': { config: { ratelimit: { max: 1 } } } } })).toEqual([
      'config/plugins.json: users-permissions.config.ratelimit is not a known option (did you mean rateLimit?)',
    ]);
    expect(configErrorLines({ 'api.json': { rest: { somethingElse: 1 } } })).toEqual(['config/api.json: rest.somethingElse is not a known option']);
    expect(configErrorLines({ 'server.json': { prot: 1 } })).toEqual(['config/server.json: prot is not a known option (did you mean port?)']);
  });

  test('a wrongly typed key is named with its path and what it must be', () => {
    expect(configErrorLines({ 'api.json': { rest: { maxLimit: -1 } } })).toEqual(['config/api.json: rest.maxLimit must be a positive integer, got -1']);
    expect(configErrorLines({ 'api.json': { rest: { maxLimit: 1.5 } } })).toEqual(['config/api.json: rest.maxLimit must be a positive integer, got 1.5']);
    expect(configErrorLines({ 'plugins.json': { graphql: { config: { shadowCRUD: 'yes' } } } })).toEqual([
      'config/plugins.json: graphql.config.shadowCRUD must be a boolean, got "yes"',
    ]);
    expect(configErrorLines({ 'plugins.json': { graphql: { config: { endpoint: 'graphql' } } } })).toEqual([
      'config/plugins.json: graphql.config.endpoint must be a path starting with "/", got "graphql"',
    ]);
    expect(configErrorLines({ 'plugins.json': { graphql: { config: { yoga: [] } } } })).toEqual(['config/plugins.json: graphql.config.yoga must be an object, got []']);
    expect(configErrorLines({ 'database.json': { client: 'postgres' } })).toEqual([
      'config/database.json: client must be one of "embedded", "mongodb", got "postgres"',
    ]);
    expect(configErrorLines({ 'database.json': { client: 'mongo' } })).toEqual([
      'config/database.json: client must be one of "embedded", "mongodb", got "mongo" (did you mean "mongodb"?)',
    ]);
    expect(configErrorLines({ 'webhooks.json': [{ name: 'hook', url: 'https://example.com', events: ['entry.updat'] }] })).toEqual([
      'config/webhooks.json: [0].events[0] must be one of "entry.create", "entry.update", "entry.delete", "entry.publish", "entry.unpublish", "media.create", "media.update", "media.delete", got "entry.updat" (did you mean "entry.update"?)',
    ]);
    expect(configErrorLines({ 'plugins.json': { upload: { config: { allowedTypes: ['png'] } } } })).toEqual([
      'config/plugins.json: upload.config.allowedTypes[0] must be a MIME type such as "image/png" or "image/*", got "png"',
    ]);
  });

  test('a non-numeric env.int value is reported on the key it feeds', () => {
    const files = { 'api.js': "module.exports = ({ env }) => ({ rest: { maxLimit: env.int('MAX_LIMIT', 100) } });" };
    expect(configErrorLines(files, { env: { MAX_LIMIT: 'lots' } })).toEqual(['config/api.js: rest.maxLimit must be a positive integer, got NaN']);
  });

  test('every problem is reported at once, one line each', () => {
    const lines = configErrorLines({
      'plugins.json': { graphql: { config: { depthLimt: 7, maxLimit: 0 } } },
      'api.json': { rest: { defaultLimit: 'ten' } },
      'server.json': { port: -1 },
    });
    expect(lines).toHaveLength(4);
  });
});

describe('plugins', () => {
  test('other plugins are accepted and ignored when they are objects', () => {
    const config = loadFrom({ 'plugins.json': { seo: { enabled: true }, 'color-picker': { enabled: true, config: { any: 1 } } } });
    expect(config).toEqual({ ...defaultConfig(), sources: expect.any(Object) });
    expect(configErrorLines({ 'plugins.json': { seo: true } })).toEqual(['config/plugins.json: seo must be an object, got true']);
  });

  test('graphql can be disabled', () => {
    expect(loadFrom({ 'plugins.json': { graphql: { enabled: false } } }).graphql.enabled).toBe(false);
  });

  test('pagination defaults must not exceed their maximum', () => {
    expect(configErrorLines({ 'plugins.json': { graphql: { config: { defaultLimit: 200 } } } })).toEqual([
      'config/plugins.json: graphql.config.defaultLimit (200) must not exceed maxLimit (100)',
    ]);
    expect(configErrorLines({ 'api.json': { rest: { maxLimit: 10 } } })).toEqual(['config/api.json: rest.defaultLimit (25) must not exceed maxLimit (10)']);
  });

  test('i18n locales are non-empty codes and include the default locale', () => {
    expect(loadFrom({ 'plugins.json': { i18n: { config: { locales: ['fr', 'de'] } } } }).i18n).toEqual({ locales: ['fr', 'de'], defaultLocale: 'fr' });
    expect(configErrorLines({ 'plugins.json': { i18n: { config: { locales: [] } } } })).toEqual([
      'config/plugins.json: i18n.config.locales must be a non-empty array, got []',
    ]);
    expect(configErrorLines({ 'plugins.json': { i18n: { config: { locales: ['en', ''] } } } })).toEqual([
      'config/plugins.json: i18n.config.locales[1] must be a locale code such as "en" or "fr-CA", got ""',
    ]);
    expect(configErrorLines({ 'plugins.json': { i18n: { config: { locales: ['en', 'fr'], defaultLocale: 'de' } } } })).toEqual([
      'config/plugins.json: i18n.config.defaultLocale "de" must be one of the locales (en, fr)',
    ]);
    expect(configErrorLines({ 'plugins.json': { i18n: { config: { locales: ['en', 'en'] } } } })).toEqual([
      'config/plugins.json: i18n.config.locales[1] "en" is listed twice',
    ]);
  });

  test('roles list permissions by action uid', () => {
    const roles = { editor: { description: 'Edits', permissions: ['api::article.article.create', 'plugin::upload.content-api.upload'] } };
    expect(loadFrom({ 'plugins.json': { 'users-permissions': { config: { roles } } } }).usersPermissions.roles).toEqual(roles);
    expect(configErrorLines({ 'plugins.json': { 'users-permissions': { config: { roles: { editor: { permissions: ['article.find'] } } } } } })[0]).toMatch(
      /^config\/plugins\.json: users-permissions\.config\.roles\.editor\.permissions\[0\] must be a permission like "api::article\.article\.find"/,
    );
    expect(configErrorLines({ 'plugins.json': { 'users-permissions': { config: { roles: { editor: { description: 'x' } } } } } })).toEqual([
      'config/plugins.json: users-permissions.config.roles.editor.permissions is required',
    ]);
  });
});

describe('upload', () => {
  test('the provider is the local folder on the embedded engine and GridFS on MongoDB, unless configured; GridFS needs MongoDB', () => {
    const mongodb = { 'database.json': { client: 'mongodb', uri: 'mongodb://localhost:27017/folio' } };
    expect(loadFrom({}).upload.provider).toBe('local');
    expect(loadFrom(mongodb).upload.provider).toBe('gridfs');
    expect(loadFrom({ ...mongodb, 'plugins.json': { upload: { config: { provider: 'local' } } } }).upload.provider).toBe('local');
    expect(configErrorLines({ 'plugins.json': { upload: { config: { provider: 'gridfs' } } } })).toEqual([
      'config/plugins.json: upload.config.provider "gridfs" keeps files in MongoDB: it needs the mongodb database client',
    ]);
    expect(configErrorLines({ 'plugins.json': { upload: { config: { provider: 'aws-s3' } } } })).toEqual([
      'config/plugins.json: upload.config.provider must be one of "local", "gridfs", got "aws-s3"',
    ]);
  });

  test('breakpoints default to Strapi\'s, and a configured set replaces them whole', () => {
    expect(loadFrom({}).upload.breakpoints).toEqual({ large: 1000, medium: 750, small: 500 });
    expect(loadFrom({ 'plugins.json': { upload: { config: { breakpoints: { small: 320 } } } } }).upload.breakpoints).toEqual({ small: 320 });
    expect(loadFrom({ 'plugins.json': { upload: { config: { breakpoints: {} } } } }).upload.breakpoints).toEqual({});
  });

  test('a breakpoint is a positive integer under a name usable in file names, other than thumbnail', () => {
    expect(configErrorLines({ 'plugins.json': { upload: { config: { breakpoints: { small: '500' } } } } })).toEqual([
      'config/plugins.json: upload.config.breakpoints.small must be a positive integer, got "500"',
    ]);
    expect(configErrorLines({ 'plugins.json': { upload: { config: { breakpoints: { small: 0, large: 1.5 } } } } })).toEqual([
      'config/plugins.json: upload.config.breakpoints.small must be a positive integer, got 0',
      'config/plugins.json: upload.config.breakpoints.large must be a positive integer, got 1.5',
    ]);
    expect(configErrorLines({ 'plugins.json': { upload: { config: { breakpoints: [500] } } } })).toEqual([
      'config/plugins.json: upload.config.breakpoints must be an object, got an array',
    ]);
    expect(configErrorLines({ 'plugins.json': { upload: { config: { breakpoints: { 'x-large': 1920, thumbnail: 100 } } } } })).toEqual([
      'config/plugins.json: upload.config.breakpoints.x-large is not a usable format name: letters, digits and _ only (it starts file names)',
      'config/plugins.json: upload.config.breakpoints.thumbnail is the name of the thumbnail format, which is always made',
    ]);
  });
});

describe('admin', () => {
  const token = { name: 'ci', type: 'custom', accessKey: 'secret-access-key-1', permissions: ['api::article.article.find'] };

  test('API tokens need a name, a type and an access key', () => {
    expect(configErrorLines({ 'admin.json': { apiTokens: [{ type: 'full-access' }] } })).toEqual([
      'config/admin.json: apiTokens[0].name is required',
      'config/admin.json: apiTokens[0].accessKey is required',
    ]);
    expect(configErrorLines({ 'admin.json': { apiTokens: [{ ...token, type: 'admin' }] } })).toEqual([
      'config/admin.json: apiTokens[0].type must be one of "full-access", "read-only", "custom", got "admin"',
    ]);
  });

  test('permissions go with custom tokens only', () => {
    expect(configErrorLines({ 'admin.json': { apiTokens: [{ ...token, permissions: [] }] } })).toEqual([
      'config/admin.json: apiTokens[0].permissions must list at least one permission for a custom token',
    ]);
    expect(configErrorLines({ 'admin.json': { apiTokens: [{ ...token, type: 'read-only' }] } })).toEqual([
      'config/admin.json: apiTokens[0].permissions only apply to custom tokens (this one is read-only)',
    ]);
  });

  test('token names and keys are unique, and keys are never echoed', () => {
    const lines = configErrorLines({ 'admin.json': { apiTokens: [token, { ...token }] } });
    expect(lines).toEqual([
      'config/admin.json: apiTokens[1].name "ci" is already the name of apiTokens[0]',
      'config/admin.json: apiTokens[1].accessKey is the same as apiTokens[0].accessKey',
    ]);
    expect(configErrorLines({ 'admin.json': { apiTokens: [{ ...token, accessKey: 42 }] } })).toEqual([
      'config/admin.json: apiTokens[0].accessKey must be a non-empty string',
    ]);
  });
});

describe("settings from Strapi's project template", () => {
  test('are accepted and ignored where they mean nothing to Folio', () => {
    const config = loadFrom({
      'server.js': "module.exports = ({ env }) => ({ host: env('HOST', '0.0.0.0'), port: env.int('PORT', 1337), app: { keys: env.array('APP_KEYS') }, webhooks: { populateRelations: false } });",
      'admin.js': "module.exports = ({ env }) => ({ auth: { secret: env('ADMIN_JWT_SECRET') }, apiToken: { salt: env('API_TOKEN_SALT', 'salt') }, transfer: { token: { salt: 't' } }, flags: { nps: true } });",
      'api.js': 'module.exports = { rest: { defaultLimit: 25, maxLimit: 100, withCount: true } };',
    });
    expect(config.server).toEqual({ host: '0.0.0.0', port: 1337, proxy: false, maxHeaderSize: 16384, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 });
    expect(config.admin).toEqual({ apiTokens: [], apiTokenSalt: 'salt' });
    expect(config.rest).toEqual(defaultConfig().rest);
  });
});
