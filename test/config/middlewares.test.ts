import { defaultCors } from '../../src/config/defaults';
import { configErrorLines, loadFrom } from './config-dir';

/** `config/middlewares`: Strapi's middleware array, of which Folio runs `strapi::cors` and `strapi::security` (see security.test.ts). */

const STRAPI_TEMPLATE = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];

const withCors = (config: unknown) => STRAPI_TEMPLATE.map((name) => (name === 'strapi::cors' ? { name, config } : name));

describe('which CORS runs', () => {
  test("no middlewares file: Strapi's defaults", () => {
    expect(loadFrom({}).cors).toEqual({
      origin: '*',
      maxAge: 31536000,
      credentials: true,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
      headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
    });
  });

  test("Strapi's project template: the defaults; its other middlewares are accepted", () => {
    expect(loadFrom({ 'middlewares.json': STRAPI_TEMPLATE }).cors).toEqual(defaultCors());
    const others = ['strapi::compression', 'strapi::ip', 'strapi::responseTime'];
    expect(loadFrom({ 'middlewares.json': [...STRAPI_TEMPLATE, ...others] }).cors).toEqual(defaultCors());
  });

  test('an array without strapi::cors turns CORS off', () => {
    expect(loadFrom({ 'middlewares.json': STRAPI_TEMPLATE.filter((name) => name !== 'strapi::cors') }).cors).toBe(false);
    expect(loadFrom({ 'middlewares.json': [] }).cors).toBe(false);
  });

  test('strapi::cors config keys replace the defaults they name', () => {
    const config = { origin: ['https://app.example.com'], maxAge: 600, credentials: false, methods: 'GET,POST', headers: [], expose: ['X-Total'] };
    expect(loadFrom({ 'middlewares.json': withCors(config) }).cors).toEqual(config);
    expect(loadFrom({ 'middlewares.json': withCors({ origin: 'https://a.example, https://b.example' }) }).cors).toEqual({
      ...defaultCors(),
      origin: 'https://a.example, https://b.example',
    });
  });

  test('keepHeadersOnError and enabled: true are accepted and change nothing', () => {
    expect(loadFrom({ 'middlewares.json': withCors({ keepHeadersOnError: true, enabled: true }) }).cors).toEqual(defaultCors());
  });
});

describe('file formats', () => {
  test('.js files export the array or a function of env returning it', () => {
    const js = (body: string) => loadFrom({ 'middlewares.js': body }, { env: { CORS_ORIGINS: 'https://a.example,https://b.example' } }).cors;
    expect(js("module.exports = ['strapi::errors', { name: 'strapi::cors', config: { maxAge: 60 } }];")).toEqual({ ...defaultCors(), maxAge: 60 });
    expect(js("module.exports = ({ env }) => [{ name: 'strapi::cors', config: { origin: env.array('CORS_ORIGINS') } }];")).toEqual({
      ...defaultCors(),
      origin: ['https://a.example', 'https://b.example'],
    });
    expect(js("exports.__esModule = true; exports.default = ['strapi::body'];")).toBe(false);
  });

  test('the file must give an array', () => {
    expect(configErrorLines({ 'middlewares.json': { cors: {} } })).toEqual(['config/middlewares.json: must hold a JSON array']);
    expect(configErrorLines({ 'middlewares.js': 'module.exports = () => ({});' })).toEqual([
      'config/middlewares.js: must export an array or a function returning one (synchronously)',
    ]);
  });
});

describe('problems name the file and the array index', () => {
  test('custom middlewares are refused', () => {
    expect(configErrorLines({ 'middlewares.json': [...STRAPI_TEMPLATE, 'global::custom', { name: 'api::shop.log', config: {} }] })).toEqual([
      'config/middlewares.json: [10] "global::custom" is not one of Strapi\'s built-in middlewares; Folio does not run custom Koa middlewares',
      'config/middlewares.json: [11] "api::shop.log" is not one of Strapi\'s built-in middlewares; Folio does not run custom Koa middlewares',
    ]);
    expect(configErrorLines({ 'middlewares.js': "module.exports = [{ resolve: './src/middlewares/timer' }];" })).toEqual([
      'config/middlewares.js: [0].resolve loads a custom middleware; Folio does not run custom Koa middlewares',
    ]);
  });

  test('entries are names or { name, config }', () => {
    expect(configErrorLines({ 'middlewares.json': ['strapi::errors', 42] })).toEqual([
      'config/middlewares.json: [1] must be a middleware name or an object such as { "name": "strapi::cors", "config": { … } }, got 42',
    ]);
    expect(configErrorLines({ 'middlewares.json': [{ config: {} }] })).toEqual(['config/middlewares.json: [0].name is required']);
    expect(configErrorLines({ 'middlewares.json': [{ name: 'strapi::cors', confg: {} }] })).toEqual([
      'config/middlewares.json: [0].confg is not a known option (did you mean config?)',
    ]);
  });

  test('strapi::cors listed twice', () => {
    expect(configErrorLines({ 'middlewares.json': ['strapi::cors', 'strapi::body', { name: 'strapi::cors', config: {} }] })).toEqual([
      'config/middlewares.json: [2] lists "strapi::cors" again (already at [0]); keep one',
    ]);
  });

  test('wrongly typed and unknown cors keys are named with their path', () => {
    expect(
      configErrorLines({ 'middlewares.json': withCors({ origin: 5, maxAge: -1, credentials: 'yes', methods: ['GET', 1], headers: {}, expose: '', keepHeaderOnError: true }) }),
    ).toEqual([
      'config/middlewares.json: [3].config.origin must be a string or an array of strings, got 5',
      'config/middlewares.json: [3].config.maxAge must be a non-negative integer, got -1',
      'config/middlewares.json: [3].config.credentials must be a boolean, got "yes"',
      'config/middlewares.json: [3].config.methods[1] must be a non-empty string, got 1',
      'config/middlewares.json: [3].config.headers must be a string or an array of strings, got {}',
      'config/middlewares.json: [3].config.expose must be a string or an array of strings, got ""',
      'config/middlewares.json: [3].config.keepHeaderOnError is not a known option (did you mean keepHeadersOnError?)',
    ]);
  });

  test('an origin function cannot be read from config', () => {
    expect(configErrorLines({ 'middlewares.js': "module.exports = [{ name: 'strapi::cors', config: { origin: (ctx) => ctx.get('Origin') } }];" })).toEqual([
      'config/middlewares.js: [0].config.origin must be a string or an array of strings, got function',
    ]);
  });

  test('enabled: false is refused: Strapi 5 ignores it, which would leave CORS on', () => {
    expect(configErrorLines({ 'middlewares.json': withCors({ enabled: false }) })).toEqual([
      'config/middlewares.json: [3].config.enabled is ignored by Strapi 5 and would leave CORS on; to turn CORS off, remove "strapi::cors" from the array',
    ]);
  });
});
