import { defaultConfig } from '../../src/config/defaults';
import { defaultSecurity } from '../../src/config/resolve-security';
import { configErrorLines, loadFrom } from './config-dir';
import { STRAPI_DIRECTIVES, STRAPI_HEADERS } from './strapi-security';

/** `strapi::security` in `config/middlewares`: helmet's options over Strapi's defaults, resolved into headers. */

const TEMPLATE = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body'];

const withSecurity = (config: unknown) => TEMPLATE.map((name) => (name === 'strapi::security' ? { name, config } : name));
const securityOf = (config: unknown) => loadFrom({ 'middlewares.json': withSecurity(config) }).security;
const errorsOf = (config: unknown) => configErrorLines({ 'middlewares.json': withSecurity(config) });

describe('whether the headers are sent', () => {
  test("no middlewares file, or strapi::security listed bare or with an empty config: Strapi's headers", () => {
    const strapi = { contentSecurityPolicy: { directives: STRAPI_DIRECTIVES, reportOnly: false }, headers: STRAPI_HEADERS };
    expect(defaultSecurity()).toEqual(strapi);
    const { contentSecurityPolicy, headers } = defaultSecurity();
    expect(Object.keys(contentSecurityPolicy ? contentSecurityPolicy.directives : {})).toEqual(Object.keys(STRAPI_DIRECTIVES));
    expect(Object.keys(headers)).toEqual(Object.keys(STRAPI_HEADERS));
    expect(loadFrom({}).security).toEqual(strapi);
    expect(defaultConfig().security).toEqual(strapi);
    expect(loadFrom({ 'middlewares.json': TEMPLATE }).security).toEqual(strapi);
    expect(securityOf({})).toEqual(strapi);
  });

  test('an array without strapi::security sends none', () => {
    expect(loadFrom({ 'middlewares.json': TEMPLATE.filter((name) => name !== 'strapi::security') }).security).toBe(false);
    expect(loadFrom({ 'middlewares.json': [] }).security).toBe(false);
  });

  test('in a .js file, from env', () => {
    const config = loadFrom(
      { 'middlewares.js': "module.exports = ({ env }) => [{ name: 'strapi::security', config: { hsts: env.bool('HSTS', true) } }];" },
      { env: { HSTS: 'false' } },
    );
    expect(config.security && config.security.headers).not.toHaveProperty('strict-transport-security');
  });
});

describe('contentSecurityPolicy', () => {
  const directivesOf = (contentSecurityPolicy: unknown) => {
    const security = securityOf({ contentSecurityPolicy });
    return security && security.contentSecurityPolicy && security.contentSecurityPolicy.directives;
  };

  test('false sends no policy and keeps the other headers', () => {
    expect(securityOf({ contentSecurityPolicy: false })).toEqual({ contentSecurityPolicy: false, headers: STRAPI_HEADERS });
  });

  test("configured directives replace the defaults they name and come first, then Strapi's, then helmet's", () => {
    const directives = directivesOf({ directives: { 'img-src': ["'self'", 'data:', 'https://cdn.example.com'], scriptSrc: ["'self'", 'https://js.example.com'], 'frame-src': "'none'" } });
    expect(directives).toEqual({
      ...STRAPI_DIRECTIVES,
      'img-src': ["'self'", 'data:', 'https://cdn.example.com'],
      'script-src': ["'self'", 'https://js.example.com'],
      'frame-src': ["'none'"],
    });
    expect(Object.keys(directives as object)).toEqual([
      'img-src',
      'script-src',
      'frame-src',
      'connect-src',
      'media-src',
      'default-src',
      'base-uri',
      'font-src',
      'form-action',
      'frame-ancestors',
      'object-src',
      'script-src-attr',
      'style-src',
    ]);
  });

  test('null drops a default directive; an empty list sends the bare name', () => {
    const directives = directivesOf({ directives: { 'connect-src': null, 'frame-ancestors': null, upgradeInsecureRequests: [] } });
    expect(directives).not.toHaveProperty('connect-src');
    expect(directives).not.toHaveProperty('frame-ancestors');
    expect(directives).toHaveProperty('upgrade-insecure-requests', []);
  });

  test("useDefaults: false leaves helmet's directives out (Strapi's stay)", () => {
    expect(directivesOf({ useDefaults: false, directives: { 'default-src': ["'none'"] } })).toEqual({
      'default-src': ["'none'"],
      'connect-src': ["'self'", 'https:'],
      'img-src': ["'self'", 'data:', 'blob:'],
      'media-src': ["'self'", 'data:', 'blob:'],
    });
  });

  test("true is helmet's own policy, and reportOnly sends it as Content-Security-Policy-Report-Only", () => {
    const helmets = directivesOf(true);
    // helmet's img-src, and its upgrade-insecure-requests, which Strapi drops; not Strapi's connect-src or media-src
    expect(helmets).toMatchObject({ 'default-src': ["'self'"], 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': [] });
    expect(Object.keys(helmets as object).join(' ')).toBe(
      'default-src base-uri font-src form-action frame-ancestors img-src object-src script-src script-src-attr style-src upgrade-insecure-requests',
    );
    const security = securityOf({ contentSecurityPolicy: { reportOnly: true } });
    expect(security && security.contentSecurityPolicy).toEqual({ directives: STRAPI_DIRECTIVES, reportOnly: true });
  });

  test("what helmet refuses is a config error naming the key's path", () => {
    expect(
      errorsOf({
        contentSecurityPolicy: {
          directives: { 'img-src': ['self', 'https://a.example;b'], scriptSrc: 'nonce-abc', 'script-src': [], 'style-src': 5, 'Bad Name': [], 'font-src': [1] },
        },
      }),
    ).toEqual([
      'config/middlewares.json: [2].config.contentSecurityPolicy.directives.img-src[0] must be quoted: "\'self\'"',
      'config/middlewares.json: [2].config.contentSecurityPolicy.directives.img-src[1] must not hold ";" or ",", got "https://a.example;b"',
      'config/middlewares.json: [2].config.contentSecurityPolicy.directives.scriptSrc must be quoted: "\'nonce-abc\'"',
      'config/middlewares.json: [2].config.contentSecurityPolicy.directives.style-src must be an array of sources, a string or null, got 5',
      'config/middlewares.json: [2].config.contentSecurityPolicy.directives.font-src[0] must be a string, got 1',
    ]);
    expect(errorsOf({ contentSecurityPolicy: { directives: { scriptSrc: [], 'script-src': [], 'Bad Name': [] } } })).toEqual([
      'config/middlewares.json: [2].config.contentSecurityPolicy.directives.script-src names the same directive as scriptSrc; keep one',
      'config/middlewares.json: [2].config.contentSecurityPolicy.directives.Bad Name is not a directive name (such as "img-src" or "imgSrc")',
    ]);
    expect(errorsOf({ contentSecurityPolicy: { directives: { 'default-src': null } } })).toEqual([
      'config/middlewares.json: [2].config.contentSecurityPolicy.directives.default-src cannot be null: helmet requires a default-src',
    ]);
    expect(errorsOf({ contentSecurityPolicy: { useDefaults: false, directives: { 'img-src': ["'self'"] } } })).toEqual([
      'config/middlewares.json: [2].config.contentSecurityPolicy.directives needs a "default-src" when useDefaults is false',
    ]);
    expect(errorsOf({ contentSecurityPolicy: 'on' })).toEqual([
      'config/middlewares.json: [2].config.contentSecurityPolicy must be a boolean or an object such as { "directives": { "img-src": ["\'self\'", "data:"] } }, got "on"',
    ]);
    expect(errorsOf({ contentSecurityPolicy: { directive: {} } })).toEqual([
      'config/middlewares.json: [2].config.contentSecurityPolicy.directive is not a known option (did you mean directives?)',
    ]);
  });
});

describe('the other headers', () => {
  const headersOf = (config: Record<string, unknown>) => {
    const security = securityOf(config);
    return security && security.headers;
  };

  test('hsts / strictTransportSecurity', () => {
    expect(headersOf({ hsts: { maxAge: 600 } })).toHaveProperty('strict-transport-security', 'max-age=600; includeSubDomains');
    expect(headersOf({ hsts: { includeSubDomains: false, preload: true } })).toHaveProperty('strict-transport-security', 'max-age=31536000; preload');
    expect(headersOf({ strictTransportSecurity: { maxAge: 60 } })).toHaveProperty('strict-transport-security', 'max-age=60; includeSubDomains');
    expect(headersOf({ hsts: false })).not.toHaveProperty('strict-transport-security');
  });

  test('frameguard / xFrameOptions', () => {
    expect(headersOf({ frameguard: { action: 'deny' } })).toHaveProperty('x-frame-options', 'DENY');
    expect(headersOf({ xFrameOptions: { action: 'SAMEORIGIN' } })).toHaveProperty('x-frame-options', 'SAMEORIGIN');
    expect(headersOf({ frameguard: false })).not.toHaveProperty('x-frame-options');
  });

  test('referrerPolicy', () => {
    expect(headersOf({ referrerPolicy: { policy: ['no-referrer', 'strict-origin-when-cross-origin'] } })).toHaveProperty(
      'referrer-policy',
      'no-referrer,strict-origin-when-cross-origin',
    );
    expect(headersOf({ referrerPolicy: { policy: 'same-origin' } })).toHaveProperty('referrer-policy', 'same-origin');
    expect(headersOf({ referrerPolicy: false })).not.toHaveProperty('referrer-policy');
  });

  test('noSniff / xContentTypeOptions and the other on-off headers', () => {
    expect(headersOf({ noSniff: false })).not.toHaveProperty('x-content-type-options');
    expect(headersOf({ xContentTypeOptions: false })).not.toHaveProperty('x-content-type-options');
    expect(headersOf({ ieNoOpen: false, xDnsPrefetchControl: { allow: true }, permittedCrossDomainPolicies: { permittedPolicies: 'master-only' }, hidePoweredBy: true })).toEqual({
      ...STRAPI_HEADERS,
      'x-download-options': undefined,
      'x-dns-prefetch-control': 'on',
      'x-permitted-cross-domain-policies': 'master-only',
    });
  });

  test("what Strapi turns off can be turned on, with helmet's defaults or given policies", () => {
    expect(
      headersOf({
        crossOriginEmbedderPolicy: true,
        crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
        crossOriginResourcePolicy: { policy: 'cross-origin' },
        originAgentCluster: true,
        xssFilter: true,
      }),
    ).toEqual({
      'cross-origin-embedder-policy': 'require-corp',
      'cross-origin-opener-policy': 'same-origin-allow-popups',
      'cross-origin-resource-policy': 'cross-origin',
      'origin-agent-cluster': '?1',
      ...STRAPI_HEADERS,
      'x-xss-protection': '0',
    });
    expect(headersOf({ crossOriginEmbedderPolicy: false, crossOriginOpenerPolicy: false, crossOriginResourcePolicy: false })).toEqual(STRAPI_HEADERS);
  });

  test('wrong types, unknown keys and one header under both names are config errors', () => {
    expect(
      errorsOf({
        hsts: { maxAge: -1, maxage: 5 },
        frameguard: { action: 'allow-from' },
        noSniff: 'no',
        crossOriginResourcePolicy: { policy: 'anywhere' },
        contentSecurtyPolicy: false,
      }),
    ).toEqual([
      'config/middlewares.json: [2].config.hsts.maxAge must be a non-negative integer, got -1',
      'config/middlewares.json: [2].config.hsts.maxage is not a known option (did you mean maxAge?)',
      'config/middlewares.json: [2].config.frameguard.action must be "deny" or "sameorigin", got "allow-from"',
      'config/middlewares.json: [2].config.noSniff must be a boolean, got "no"',
      'config/middlewares.json: [2].config.crossOriginResourcePolicy.policy must be one of "same-origin", "same-site", "cross-origin", got "anywhere"',
      'config/middlewares.json: [2].config.contentSecurtyPolicy is not a known option (did you mean contentSecurityPolicy?)',
    ]);
    expect(errorsOf({ frameguard: { action: 'deny' }, xFrameOptions: false, referrerPolicy: { policy: ['no-referrer', 'no-referrer'] } })).toEqual([
      'config/middlewares.json: [2].config.frameguard sets the same header as xFrameOptions; keep one',
      'config/middlewares.json: [2].config.referrerPolicy.policy lists a policy twice',
    ]);
  });

  test('strapi::security listed twice', () => {
    expect(configErrorLines({ 'middlewares.json': ['strapi::security', { name: 'strapi::security', config: {} }] })).toEqual([
      'config/middlewares.json: [1] lists "strapi::security" again (already at [0]); keep one',
    ]);
  });
});
