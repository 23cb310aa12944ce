import { SCALAR_ATTRIBUTE_TYPES } from '../models/types';
import { anyObject, anyString, arrayOf, boolean, either, integer, object, oneOf, recordOf, string, type Shape } from './shape';

const positiveInteger = integer({ min: 1 });
const nonEmptyString = string();
const secret = string({ secret: true });

/** `api::article.article.find`, `plugin::upload.content-api.find`, ... */
export const PERMISSION_PATTERN = /^(api|plugin)::[\w-]+(\.[\w-]+)+$/;
/** `30d`, `12h`, `90m`, `45s`, `2w`, `1y`: a unit is required (jsonwebtoken reads a bare number string as milliseconds). */
export const DURATION_PATTERN = /^([1-9]\d*)([smhdwy])$/;
const duration = string({ pattern: DURATION_PATTERN, expected: 'a duration such as "30d", "12h" or "90m"' });
const permission = string({ pattern: PERMISSION_PATTERN, expected: `a permission like "api::article.article.find" (${PERMISSION_PATTERN})` });
const localeCode = string({ pattern: /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/, expected: 'a locale code such as "en" or "fr-CA"' });
const mimeType = string({ pattern: /^[\w.+-]+\/(\*|[\w.+-]+)$/, expected: 'a MIME type such as "image/png" or "image/*"' });

const anyValue: Shape<unknown> = (value) => value;

/** graphql-yoga's options a Folio user may set; what Folio owns is named so, with where it is set instead. */
const yogaOptions = object(
  {
    logging: anyValue,
    maskedErrors: anyValue,
    landingPage: anyValue,
    graphiql: anyValue,
    renderGraphiQL: anyValue,
    // envelop or yoga plugins: they run after Folio's own, on /graphql and on every REST request
    plugins: arrayOf(anyObject),
    parserAndValidationCache: anyValue,
    multipart: anyValue,
    id: anyValue,
    batching: anyValue,
    healthCheckEndpoint: anyValue,
  },
  {
    hints: {
      schema: 'is made by Folio from the models and extensions',
      context: "is made by Folio (the principal, the request's limits); add to it with a plugin's onContextBuilding",
      cors: 'is set in config/middlewares (strapi::cors), for every route at once',
      graphqlEndpoint: 'is graphql.config.endpoint',
      maxRequestBodySize: 'is api.rest.bodyLimit, for every route at once',
    },
  },
);

/** `false` turns a built-in protection off */
const off: Shape<false> = (value, path, issues) => {
  if (value === false) return false;
  issues.push({ path, message: `must be a positive integer, or false to turn it off, got ${JSON.stringify(value)}` });
  return undefined;
};
const limitOrOff = either(positiveInteger, off, 'a positive integer, or false to turn it off');

const graphqlConfig = object({
  endpoint: string({ pattern: /^\/\S*$/, expected: 'a path starting with "/"' }),
  shadowCRUD: boolean,
  playgroundAlways: boolean,
  introspection: boolean,
  depthLimit: limitOrOff,
  amountLimit: limitOrOff,
  defaultLimit: positiveInteger,
  maxLimit: positiveInteger,
  maxFilterStringLength: positiveInteger,
  maxAliases: limitOrOff,
  maxTokens: limitOrOff,
  maxDirectives: limitOrOff,
  maxCost: limitOrOff,
  maxInputDepth: limitOrOff,
  maxResponseBytes: positiveInteger,
  yoga: yogaOptions,
  persistedOperations: object({ store: nonEmptyString, allowArbitraryOperations: boolean }, { required: ['store'] }),
  responseCache: either(boolean, object({ ttl: positiveInteger, max: positiveInteger }), 'a boolean or an object such as { "ttl": 60000, "max": 1000 }'),
  // Strapi's GraphQL plugin runs on Apollo Server; only options graphql-yoga can honour are taken from here.
  apolloServer: object(
    { introspection: boolean },
    {
      // Kept in many Strapi configs from its defaults; graphql-yoga has no such switches, and they change no result.
      ignored: ['cache', 'tracing', 'persistedQueries'],
      unknownKey: 'has no graphql-yoga equivalent; put graphql-yoga options in graphql.config.yoga',
    },
  ),
});

const role = object({ description: anyString, permissions: arrayOf(permission) }, { required: ['permissions'] });

export const pluginsFileShape = object(
  {
    graphql: object({ enabled: boolean, config: graphqlConfig }),
    i18n: object({ config: object({ locales: arrayOf(localeCode, { nonEmpty: true }), defaultLocale: localeCode }) }),
    'users-permissions': object({
      config: object({
        jwtSecret: secret,
        jwt: object({ expiresIn: duration }),
        roles: recordOf(role),
        rateLimit: object({ max: positiveInteger, windowMs: positiveInteger }),
      }),
    }),
    upload: object({ config: object({ sizeLimit: positiveInteger, allowedTypes: arrayOf(mimeType), directory: nonEmptyString, breakpoints: recordOf(positiveInteger) }) }),
    // custom fields' uids → the Strapi type they store (see models/custom-fields)
    'custom-fields': object({ config: recordOf(oneOf(SCALAR_ATTRIBUTE_TYPES.filter((type) => type !== 'password'))) }),
  },
  // A Strapi project lists plugins Folio does not have; their settings cannot affect the content API.
  { otherKeys: anyObject },
);

export const apiFileShape = object({
  // `withCount` is in Strapi's project template; Folio always counts, which is what its default (true) means.
  rest: object({ defaultLimit: positiveInteger, maxLimit: positiveInteger, bodyLimit: positiveInteger, strictQuery: boolean, maxPopulateDepth: positiveInteger }, { ignored: ['withCount'] }),
});

/** An HTTP header name (RFC 9110 token). */
const headerName = string({ pattern: /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, expected: 'a header name such as "X-Forwarded-For"' });

/**
 * Strapi 5's `proxy`: `{ koa: true }` trusts the reverse proxy's `X-Forwarded-For` (koa's `app.proxy`), with
 * koa's `maxIpsCount` and `proxyIpHeader` as `maxIpsCount` and `ipHeader` (Strapi 5.52+). A bare boolean is
 * Strapi v4's form, still in Strapi 5's types.
 */
const proxy = either(
  boolean,
  object(
    { koa: boolean, maxIpsCount: integer({ min: 0 }), ipHeader: headerName },
    // Proxies for the requests Strapi itself sends (license checks, webhooks); Folio sends none.
    { ignored: ['global', 'http', 'https', 'fetch'] },
  ),
  'a boolean or an object such as { "koa": true }',
);

/** `server.metrics`: `true` serves `/metrics` to anyone who reaches it, `{ token }` only with `Authorization: Bearer <token>`. */
const metrics = either(boolean, object({ token: string({ expected: 'a non-empty string', secret: true }) }, { required: ['token'] }), 'a boolean or an object such as { "token": "…" }');

export const serverFileShape = object(
  { host: nonEmptyString, port: integer({ min: 0, max: 65535 }), proxy, maxHeaderSize: integer({ min: 1024, max: 1024 * 1024 }), metrics },
  // In every Strapi project's server.js: Koa session keys and webhook options, which Folio has no use for.
  { ignored: ['app', 'webhooks'] },
);

export const MONGODB_URI_PATTERN = /^mongodb(\+srv)?:\/\/\S+$/;

export const databaseFileShape = object(
  {
    client: oneOf(['embedded', 'mongodb']),
    uri: string({ pattern: MONGODB_URI_PATTERN, expected: 'a mongodb:// or mongodb+srv:// URL', secret: true }),
    options: anyObject,
  },
  { hints: { connection: 'is Strapi\'s SQL connection shape, which Folio does not use: write { "client": "embedded" } or { "client": "mongodb", "uri": "mongodb://…" }' } },
);

const apiToken = object(
  {
    name: nonEmptyString,
    type: oneOf(['full-access', 'read-only', 'custom']),
    accessKey: secret,
    permissions: arrayOf(permission),
    description: anyString,
  },
  { required: ['name', 'type', 'accessKey'] },
);

export const adminFileShape = object(
  { apiTokens: arrayOf(apiToken), apiToken: object({ salt: secret }) },
  // In every Strapi project's admin.js: admin-panel auth, data transfer and feature flags, which Folio does not serve.
  { ignored: ['auth', 'transfer', 'flags', 'secrets'] },
);

const stringOrList = either(nonEmptyString, arrayOf(nonEmptyString), 'a string or an array of strings');

export const corsConfigShape = object({
  origin: stringOrList,
  maxAge: integer({ min: 0 }),
  credentials: boolean,
  methods: stringOrList,
  headers: stringOrList,
  expose: stringOrList,
  // Accepted for Strapi configs: Folio's error answers carry the CORS headers whatever this says.
  keepHeadersOnError: boolean,
  // Strapi 5 ignores it with a warning; resolveMiddlewares refuses `false`, which would leave CORS on.
  enabled: boolean,
});

/** helmet refuses these unquoted: they would name a host called `self` */
const QUOTED_KEYWORDS = new Set(['none', 'self', 'strict-dynamic', 'report-sample', 'inline-speculation-rules', 'unsafe-inline', 'unsafe-eval', 'unsafe-hashes', 'wasm-unsafe-eval']);

/** One source of a Content-Security-Policy directive, checked as helmet checks it. */
const source: Shape<string> = (value, path, issues) => {
  const text = anyString(value, path, issues);
  if (text === undefined) return undefined;
  const unquoted = QUOTED_KEYWORDS.has(text) || /^(nonce|sha256|sha384|sha512)-/.test(text);
  const problem = /[;,]/.test(text) ? `must not hold ";" or ",", got ${JSON.stringify(text)}` : unquoted ? `must be quoted: "'${text}'"` : undefined;
  if (problem === undefined) return text;
  issues.push({ path, message: problem });
  return undefined;
};

const sourceList = arrayOf(source);

/** A directive's sources: a list, one string, or null to drop a default directive. */
const directiveValue: Shape<string[] | null> = (value, path, issues) => {
  if (value === null) return null;
  if (typeof value === 'string') {
    const one = source(value, path, issues);
    return one === undefined ? undefined : [one];
  }
  if (Array.isArray(value)) return sourceList(value, path, issues);
  issues.push({ path, message: `must be an array of sources, a string or null, got ${JSON.stringify(value) ?? typeof value}` });
  return undefined;
};

const onOffOr = <T>(settings: Shape<T>, example: string) => either(boolean, settings, `a boolean or an object such as ${example}`);

const REFERRER_POLICIES = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'same-origin',
  'origin',
  'strict-origin',
  'origin-when-cross-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
  '',
] as const;
const referrerPolicy = oneOf(REFERRER_POLICIES);

const hsts = onOffOr(object({ maxAge: integer({ min: 0 }), includeSubDomains: boolean, preload: boolean }), '{ "maxAge": 31536000 }');
const noSniff = boolean;
const dnsPrefetch = onOffOr(object({ allow: boolean }), '{ "allow": false }');
const ieNoOpen = boolean;
const frameguard = onOffOr(
  object({ action: string({ pattern: /^(deny|sameorigin|same-origin)$/i, expected: '"deny" or "sameorigin"' }) }),
  '{ "action": "sameorigin" }',
);
const crossDomain = onOffOr(object({ permittedPolicies: oneOf(['none', 'master-only', 'by-content-type', 'all']) }), '{ "permittedPolicies": "none" }');
const poweredBy = boolean;
const xssFilter = boolean;

/**
 * `strapi::security`'s config: helmet's options (see resolve-security); the second name of each pair is the
 * older alias Strapi's own defaults use.
 */
export const securityConfigShape = object({
  contentSecurityPolicy: onOffOr(
    object({ useDefaults: boolean, reportOnly: boolean, directives: recordOf(directiveValue) }),
    '{ "directives": { "img-src": ["\'self\'", "data:"] } }',
  ),
  crossOriginEmbedderPolicy: onOffOr(object({ policy: oneOf(['require-corp', 'credentialless', 'unsafe-none']) }), '{ "policy": "require-corp" }'),
  crossOriginOpenerPolicy: onOffOr(
    object({ policy: oneOf(['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups', 'unsafe-none']) }),
    '{ "policy": "same-origin" }',
  ),
  crossOriginResourcePolicy: onOffOr(object({ policy: oneOf(['same-origin', 'same-site', 'cross-origin']) }), '{ "policy": "same-origin" }'),
  originAgentCluster: boolean,
  referrerPolicy: onOffOr(
    object({ policy: either(referrerPolicy, arrayOf(referrerPolicy, { nonEmpty: true }), 'a referrer policy or a non-empty array of them') }),
    '{ "policy": "no-referrer" }',
  ),
  strictTransportSecurity: hsts,
  hsts,
  xContentTypeOptions: noSniff,
  noSniff,
  xDnsPrefetchControl: dnsPrefetch,
  dnsPrefetchControl: dnsPrefetch,
  xDownloadOptions: ieNoOpen,
  ieNoOpen,
  xFrameOptions: frameguard,
  frameguard,
  xPermittedCrossDomainPolicies: crossDomain,
  permittedCrossDomainPolicies: crossDomain,
  xPoweredBy: poweredBy,
  hidePoweredBy: poweredBy,
  xXssProtection: xssFilter,
  xssFilter,
});

/** Strapi's `config/middlewares`: names, or `{ name, config }`; `resolve` points at a custom middleware's file. */
export const middlewaresFileShape = arrayOf(
  either(
    nonEmptyString,
    object({ name: nonEmptyString, config: anyObject, resolve: nonEmptyString }),
    'a middleware name or an object such as { "name": "strapi::cors", "config": { … } }',
  ),
);
