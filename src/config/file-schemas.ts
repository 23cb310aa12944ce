import { z } from 'zod';
import { SCALAR_ATTRIBUTE_TYPES, type ScalarAttributeType } from '../models/types';
import { anyObject, anyString, anyValue, arrayOf, boolean, either, expecting, integer, object, oneOf, recordOf, string, type KeyDocs } from './config-schema';
import { SMTP_TIMEOUTS, WEBHOOK_DEFAULTS, defaultConfig, defaultCors } from './defaults';
import { EMAIL_PROVIDERS, UPLOAD_PROVIDERS, WEBHOOK_EVENTS } from './types';
import { DEFAULT_EMAIL_TEMPLATES, TEMPLATE_VARIABLES, templateProblem } from './email-templates';
import { isEmailAddress } from '../common/email-address';

/**
 * The schema of every config file: what start-up and `folio check` validate, and what docs/configuration.md
 * is written from (each key's `meta`: what it does, its default, an example).
 */

const DEFAULTS = defaultConfig();
const doc = <T extends z.ZodType>(schema: T, docs: KeyDocs) => schema.optional().meta(docs);

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
const httpUrl = string({ pattern: /^https?:\/\/\S+$/, expected: 'an http:// or https:// URL' });
const emailAddress = string({ expected: 'an e-mail address such as "no-reply@example.com"' }).refine(isEmailAddress, expecting('an e-mail address such as "no-reply@example.com"'));
/** `Name <address>` or a bare address, as nodemailer takes a sender */
const sender = string({ pattern: /^([^<>]*<[^<>\s]+@[^<>\s]+>|[^<>\s]+@[^<>\s]+)$/, expected: 'an address, or a name and an address such as "Folio <no-reply@example.com>"' });

/** graphql-yoga's options a Folio user may set; what Folio owns is named so, with where it is set instead. */
const yogaOptions = object(
  {
    logging: doc(anyValue, { description: "graphql-yoga's logger, or `false`" }),
    maskedErrors: doc(anyValue, { description: 'hide unexpected errors\' messages', example: false }),
    landingPage: doc(anyValue, { description: "graphql-yoga's landing page" }),
    graphiql: doc(anyValue, { description: "GraphiQL's options" }),
    renderGraphiQL: doc(anyValue, { description: 'a function rendering GraphiQL' }),
    plugins: doc(arrayOf(anyObject), {
      description: 'envelop or graphql-yoga plugins: they run after Folio\'s own limits, on `/graphql` and on every REST request (see below)',
    }),
    parserAndValidationCache: doc(anyValue, { description: "graphql-yoga's parse and validation cache" }),
    multipart: doc(anyValue, { description: 'multipart requests (GraphQL uploads)' }),
    id: doc(anyValue, { description: "graphql-yoga's instance id" }),
    batching: doc(anyValue, { description: 'batched operations in one request', example: { limit: 5 } }),
    healthCheckEndpoint: doc(anyValue, { description: "graphql-yoga's health check path" }),
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

/** Checks that involve more than one key of a file: made with the keys' own, once those are right. */

/** A page size by default above the largest page: with the defaults of the keys not set. */
function pageWithinMaximum(config: { defaultLimit?: number; maxLimit?: number }, defaults: { defaultLimit: number; maxLimit: number }, ctx: z.RefinementCtx) {
  const { defaultLimit = defaults.defaultLimit, maxLimit = defaults.maxLimit } = config;
  if (defaultLimit > maxLimit) ctx.addIssue({ code: 'custom', path: ['defaultLimit'], message: `(${defaultLimit}) must not exceed maxLimit (${maxLimit})` });
}

/** Each value named once in a list (`key` picks what must be unique): the later ones are named. */
function listedOnce<T>(items: readonly T[], key: (item: T) => string, path: (index: number) => PropertyKey[], message: (value: string, first: number) => string, ctx: z.RefinementCtx) {
  const first = new Map<string, number>();
  items.forEach((item, index) => {
    const value = key(item);
    const seen = first.get(value);
    if (seen === undefined) first.set(value, index);
    else ctx.addIssue({ code: 'custom', path: path(index), message: message(value, seen) });
  });
}

/** The responsive format every large enough image gets, beside those of the configured breakpoints. */
export const THUMBNAIL_FORMAT = 'thumbnail';

/** What a format may be called: its name starts its files' names (`small_<hash><ext>`, within the media's stored names). */
const FORMAT_NAME = /^[A-Za-z0-9_]+$/;

/** `false` turns a built-in protection off */
const LIMIT_OR_OFF = 'a positive integer, or false to turn it off';
const limitOrOff = either(integer({ min: 1, expected: LIMIT_OR_OFF }), z.literal(false), LIMIT_OR_OFF);
const protection = (description: string, value: number | false, example: number) => doc(limitOrOff, { description: `${description}; \`false\` turns it off`, default: value, example });

const { graphql } = DEFAULTS;
const graphqlConfig = object({
  endpoint: doc(string({ pattern: /^\/\S*$/, expected: 'a path starting with "/"' }), { description: 'path of the GraphQL endpoint', default: graphql.endpoint, example: '/gql' }),
  shadowCRUD: doc(boolean, {
    description: "generate the Shadow CRUD queries and mutations (switch types or fields off with an extension's `shadowCRUD`)",
    default: graphql.shadowCRUD,
  }),
  playgroundAlways: doc(boolean, { description: 'serve GraphiQL in production too (outside production it is always on)', default: graphql.playgroundAlways }),
  introspection: doc(boolean, { description: 'allow introspection queries', defaultText: 'off in production, on elsewhere' }),
  depthLimit: protection('deepest selection of a `/graphql` document, counted as Strapi counts it: the root field is depth 0', graphql.depthLimit, 7),
  amountLimit: protection(
    'longest list in a `/graphql` answer: pages are clamped to it (`pageInfo.pageSize` says so), other lists are cut to it and named in the answer\'s `extensions.amountLimit.truncated`; introspection is never cut',
    graphql.amountLimit,
    50,
  ),
  defaultLimit: doc(positiveInteger, { description: 'page size of a GraphQL list without `pagination`', default: graphql.defaultLimit, example: 20 }),
  maxLimit: doc(positiveInteger, { description: 'largest GraphQL page (`limit: -1` means this)', default: graphql.maxLimit, example: 250 }),
  maxFilterStringLength: doc(positiveInteger, { description: 'longest string in a filter', default: graphql.maxFilterStringLength, example: 200 }),
  maxAliases: protection(
    'aliases per `/graphql` document (graphql-armor; like `maxTokens` and `maxDirectives`, not applied to REST, whose operations Folio compiles)',
    graphql.maxAliases,
    10,
  ),
  maxTokens: protection('tokens per document (graphql-armor)', graphql.maxTokens, 2000),
  maxDirectives: protection('directives per operation (graphql-armor)', graphql.maxDirectives, 20),
  maxCost: protection('what an operation may return: a `/graphql` document is estimated before it runs, a REST answer counted as it is built (see below)', graphql.maxCost, 50_000),
  maxInputDepth: protection('nesting of input values (variables, literals), refused before graphql-js coerces them recursively', graphql.maxInputDepth, 20),
  maxSortKeys: protection(
    'keys one `sort` argument may name, on both surfaces: the store reads each key of every row it sorts (a key given twice is refused even with this off)',
    graphql.maxSortKeys,
    5,
  ),
  maxResponseBytes: doc(positiveInteger, {
    description: 'larger answers are refused (400 `RESPONSE_TOO_LARGE`; REST `ResponseTooLargeError`)',
    default: graphql.maxResponseBytes,
    example: 1_048_576,
  }),
  maxReadBytes: protection(
    'bytes of documents one query or mutation may read from the store, on both surfaces: 30 aliases of a 100-document page of long texts read 100 MB before their answer was refused',
    graphql.maxReadBytes,
    8 * 1024 * 1024,
  ),
  plugins: doc(arrayOf(anyObject), {
    description: 'envelop or graphql-yoga plugins, as `yoga.plugins` (when both are given, these run first): after Folio\'s own limits, on `/graphql` and on every REST request',
  }),
  yoga: doc(yogaOptions, {
    description: "graphql-yoga's options (the keys below); what Folio owns is refused with where it is set (`cors`: `config/middlewares`; `maxRequestBodySize`: `api.rest.bodyLimit`; `graphqlEndpoint`: `endpoint`)",
    default: {},
  }),
  persistedOperations: doc(
    object({
      store: nonEmptyString.meta({ description: 'the store file, relative to the config folder: `{ "<hash>": "<document>" }`; one that cannot be read stops start-up', example: 'persisted.json' }),
      allowArbitraryOperations: doc(boolean, { description: '`false`: `/graphql` runs stored operations only (REST, whose operations Folio compiles, is not affected)', default: true }),
    }),
    {
      description: 'trusted documents: clients send `extensions.persistedQuery.sha256Hash` (Apollo) or `documentId`',
      example: { store: 'persisted.json', allowArbitraryOperations: false },
    },
  ),
  responseCache: doc(
    either(
      boolean,
      object({
        ttl: doc(positiveInteger, { description: 'ms an answer is kept at most (bounds what writes elsewhere leave stale)', default: 60_000 }),
        max: doc(positiveInteger, { description: 'answers kept at most (least recently used go first)', default: 1000 }),
      }),
      'a boolean or an object such as { "ttl": 60000, "max": 1000 }',
    ),
    {
      description: 'answers of queries kept per permission set (a signed-in user\'s are theirs alone) until a write to a type they hold, on `/graphql` and REST; see below',
      default: false,
      example: { ttl: 30_000 },
    },
  ),
  // Strapi's GraphQL plugin runs on Apollo Server; only options graphql-yoga can honour are taken from here.
  apolloServer: doc(
    object(
      { introspection: doc(boolean, { description: 'same as `graphql.config.introspection`' }) },
      {
        // Kept in many Strapi configs from its defaults; graphql-yoga has no such switches, and they change no result.
        ignored: ['cache', 'tracing', 'persistedQueries'],
        unknownKey: 'has no graphql-yoga equivalent; put graphql-yoga options in graphql.config.yoga',
      },
    ),
    { description: "Strapi's Apollo options: `introspection` is taken; `cache`, `tracing` and `persistedQueries` are accepted and change nothing; others are refused" },
  ),
}).superRefine((config, ctx) => {
  pageWithinMaximum(config, graphql, ctx);
  const apollo = config.apolloServer?.introspection;
  if (apollo !== undefined && config.introspection !== undefined && apollo !== config.introspection) {
    ctx.addIssue({ code: 'custom', path: ['apolloServer', 'introspection'], message: 'contradicts graphql.config.introspection; keep one' });
  }
});

const timeout = (description: string, value: number) => doc(integer({ min: 100, max: 600_000 }), { description: `${description}, in milliseconds`, default: value });
const smtpOptions = object({
  host: nonEmptyString.meta({ description: 'the SMTP server', example: 'smtp.example.com' }),
  port: doc(integer({ min: 1, max: 65535 }), { description: 'its port', defaultText: '587, or 465 with `secure`', example: 465 }),
  secure: doc(boolean, { description: 'TLS from the start (port 465); otherwise STARTTLS when the server offers it', default: false }),
  requireTLS: doc(boolean, { description: 'refuse to send unless STARTTLS succeeds', default: false }),
  ignoreTLS: doc(boolean, { description: 'never STARTTLS', default: false }),
  auth: doc(object({ user: nonEmptyString.meta({ description: 'the account' }), pass: secret.meta({ description: 'its password' }) }), { description: 'SMTP sign-in' }),
  tls: doc(anyObject, { description: "node's TLS options", example: { rejectUnauthorized: true } }),
  name: doc(nonEmptyString, { description: 'the name Folio greets the server with', defaultText: "the machine's host name" }),
  connectionTimeout: timeout('how long to wait for the connection', SMTP_TIMEOUTS.connectionTimeout),
  greetingTimeout: timeout("how long to wait for the server's greeting", SMTP_TIMEOUTS.greetingTimeout),
  socketTimeout: timeout('how long an open connection may stay silent', SMTP_TIMEOUTS.socketTimeout),
});

type StoredType = Exclude<ScalarAttributeType, 'password'>;
/** what a custom field may store: any scalar type but a password, which would be hashed */
const STORED_TYPES = SCALAR_ATTRIBUTE_TYPES.filter((type): type is StoredType => type !== 'password') as [StoredType, ...StoredType[]];
const RELATION_TARGET = "a content type's uid (api::<api>.<name>) or false";
const relationTarget = either(string({ pattern: /^api::[^.]+\.[^.]+$/, expected: RELATION_TARGET }), z.literal(false), RELATION_TARGET);

const role = object({
  description: doc(anyString, { description: 'what the role is for' }),
  permissions: arrayOf(permission).meta({ description: 'the actions the role may take', example: ['api::article.article.find'] }),
});

/** A template's text: `<%= NAME %>` tags of the known variables only. */
const templateText = (description: string, example: string) =>
  doc(nonEmptyString.superRefine((text, ctx) => {
    const problem = templateProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }), { description, example });

const mailTemplate = (defaults: { subject: string }, link: string) =>
  doc(
    object({
      from: doc(object({ name: doc(nonEmptyString, { description: 'the sender\'s name' }), email: emailAddress.meta({ description: 'the sender\'s address' }) }), {
        description: 'the sender',
        defaultText: "the e-mail plugin's `settings.defaultFrom`",
        example: { name: 'My site', email: 'no-reply@example.com' },
      }),
      response_email: doc(emailAddress, { description: 'Reply-To', defaultText: "the e-mail plugin's `settings.defaultReplyTo`" }),
      object: templateText(`the subject (default \`${defaults.subject}\`)`, 'Welcome, <%= USER.username %>'),
      message: templateText(`the HTML body, also sent as text; default: Strapi's, with ${link}`, `<p><a href="${link}">${link}</a></p>`),
    }),
    {},
  );

const { usersPermissions, upload } = DEFAULTS;
export const pluginsFileSchema = object(
  {
    graphql: doc(
      object({
        enabled: doc(boolean, { description: '`false` serves no GraphQL endpoint (REST stays)', default: graphql.enabled }),
        config: doc(graphqlConfig, {}),
      }),
      {},
    ),
    i18n: doc(
      object({
        config: doc(
          object({
            locales: doc(arrayOf(localeCode, { nonEmpty: true }), {
              description: 'the locales localized content types may be written in',
              default: DEFAULTS.i18n.locales,
              example: ['en', 'fr-CA'],
            }),
            defaultLocale: doc(localeCode, { description: 'the locale of a request that names none (one of `locales`)', defaultText: '`en`, or the first of `locales` without it', example: 'fr-CA' }),
          }).superRefine(({ locales = DEFAULTS.i18n.locales, defaultLocale }, ctx) => {
            listedOnce(locales, (locale) => locale, (index) => ['locales', index], (locale) => `"${locale}" is listed twice`, ctx);
            if (defaultLocale !== undefined && !locales.includes(defaultLocale)) {
              ctx.addIssue({ code: 'custom', path: ['defaultLocale'], message: `"${defaultLocale}" must be one of the locales (${locales.join(', ')})` });
            }
          }),
          {},
        ),
      }),
      {},
    ),
    'users-permissions': doc(
      object({
        config: doc(
          object({
            jwtSecret: doc(secret, { description: "secret signing users' JWTs", defaultText: 'env `JWT_SECRET`; generated and kept in the store outside production' }),
            jwt: doc(object({ expiresIn: doc(duration, { description: 'lifetime of a JWT', default: usersPermissions.jwt.expiresIn, example: '7d' }) }), {}),
            roles: doc(recordOf(role), {
              description: "the Public and Authenticated roles' permissions, by role type (see [permissions.md](permissions.md))",
              default: {},
              example: { public: { permissions: ['api::article.article.find'] } },
            }),
            rateLimit: doc(
              object({
                max: doc(positiveInteger, { description: 'attempts per window', default: usersPermissions.rateLimit.max }),
                windowMs: doc(positiveInteger, { description: 'the window, in milliseconds', default: usersPermissions.rateLimit.windowMs }),
              }),
              { description: 'sign-in, sign-up, password and e-mail confirmation attempts per client address and window (429 past it)' },
            ),
            advanced: doc(
              object({
                email_confirmation: doc(boolean, {
                  description: 'sign-up mails a confirmation link, and a user signs in only once it is followed (needs the `email` plugin)',
                  default: usersPermissions.emailConfirmation,
                }),
                email_confirmation_redirection: doc(httpUrl, { description: 'where the confirmation link leads once followed', defaultText: '`/`', example: 'https://example.com/welcome' }),
                email_reset_password: doc(httpUrl, {
                  description: "the front end's page that takes the reset code: the reset mail's `URL` (forgot-password is refused without it)",
                  example: 'https://example.com/reset-password',
                }),
              }),
              { description: "Strapi's advanced settings (set in its admin panel, here in the file)" },
            ),
            emailTemplates: doc(
              object({
                reset_password: mailTemplate(DEFAULT_EMAIL_TEMPLATES.resetPassword, '<%= URL %>?code=<%= TOKEN %>'),
                email_confirmation: mailTemplate(DEFAULT_EMAIL_TEMPLATES.emailConfirmation, '<%= URL %>?confirmation=<%= CODE %>'),
              }),
              { description: `the mails' templates, Strapi's options; tags \`<%= NAME %>\` of ${TEMPLATE_VARIABLES.join(', ')} are substituted, nothing else is run` },
            ),
          }),
          {},
        ),
      }),
      {},
    ),
    upload: doc(
      object({
        config: doc(
          object({
            provider: doc(oneOf(UPLOAD_PROVIDERS), {
              description: 'where files are kept: `local`, a folder under the data folder; `gridfs`, the MongoDB database, so that every instance serves every file (the default on MongoDB)',
              default: upload.provider,
              example: 'local',
            }),
            sizeLimit: doc(positiveInteger, { description: 'largest file, in bytes', default: upload.sizeLimit, example: 10_485_760 }),
            allowedTypes: doc(arrayOf(mimeType), { description: 'MIME types accepted (`[]`: any), checked on the content, not the name', default: [], example: ['image/*', 'application/pdf'] }),
            directory: doc(nonEmptyString, { description: 'where the local provider writes files, under the data folder', default: upload.directory }),
            breakpoints: doc(recordOf(positiveInteger), {
              description: 'responsive `formats` made of JPEG, PNG, WebP, TIFF and GIF images, beside the `thumbnail`; a set replaces the default one whole',
              default: upload.breakpoints,
              example: { small: 320 },
            }),
          }).superRefine(({ breakpoints = {} }, ctx) => {
            for (const name of Object.keys(breakpoints)) {
              const message = !FORMAT_NAME.test(name)
                ? 'is not a usable format name: letters, digits and _ only (it starts file names)'
                : name === THUMBNAIL_FORMAT
                  ? 'is the name of the thumbnail format, which is always made'
                  : undefined;
              if (message) ctx.addIssue({ code: 'custom', path: ['breakpoints', name], message });
            }
          }),
          {},
        ),
      }),
      {},
    ),
    email: doc(
      object({
        enabled: doc(boolean, {
          description: "`false`: no e-mail, on purpose (Strapi's switch for a plugin): as without the plugin, and start-up no longer warns that forgot-password and e-mail confirmation cannot mail",
          default: true,
        }),
        config: doc(object({
          provider: oneOf(EMAIL_PROVIDERS).meta({ description: 'how mail is sent: `nodemailer`, over SMTP', example: 'nodemailer' }),
          providerOptions: smtpOptions.meta({ description: "the SMTP server (nodemailer's options)" }),
          settings: object({
            defaultFrom: sender.meta({ description: 'the sender of mails whose template names none', example: 'My site <no-reply@example.com>' }),
            defaultReplyTo: doc(sender, { description: 'Reply-To of mails whose template names none' }),
          }).meta({ description: 'what every mail gets' }),
        }), { description: "Strapi's e-mail plugin: what users-permissions' password reset and e-mail confirmation send with", defaultText: 'required, unless `enabled` is false' }),
      }).superRefine(({ enabled, config }, ctx) => {
        if (enabled !== false && config === undefined) ctx.addIssue({ code: 'custom', path: ['config'], message: 'is required (or `enabled: false` for no e-mail)' });
      }),
      { description: 'no `email`: no provider, so forgot-password and e-mail confirmation answer 503' },
    ),
    'custom-fields': doc(
      object({
        config: doc(recordOf(oneOf(STORED_TYPES)), {
          description: "custom field uid → the Strapi type it stores, over Folio's list of well-known ones ([strapi-projects.md](strapi-projects.md))",
          example: { 'plugin::color-picker.color': 'string' },
        }),
      }),
      {},
    ),
    'relation-targets': doc(
      object({
        config: doc(recordOf(relationTarget), {
          description:
            "a plugin's content type uid → a content type of the project its relations are served as relations to, or `false`: left out of both surfaces without the start-up line saying so ([strapi-projects.md](strapi-projects.md#relations-to-admin-users-and-plugin-types))",
          example: { 'plugin::form-builder.built-form': false },
        }),
      }),
      {},
    ),
  },
  // A Strapi project lists plugins Folio does not have; their settings cannot affect the content API.
  { otherKeys: anyObject },
).superRefine((plugins, ctx) => {
  if (plugins['users-permissions']?.config?.advanced?.email_confirmation === true && (plugins.email === undefined || plugins.email.enabled === false)) {
    ctx.addIssue({ code: 'custom', path: ['users-permissions', 'config', 'advanced', 'email_confirmation'], message: 'needs an e-mail provider to mail the links: configure the `email` plugin' });
  }
});

const { rest } = DEFAULTS;
export const apiFileSchema = object({
  rest: doc(
    object(
      {
        defaultLimit: doc(positiveInteger, { description: 'page size of a REST list without `pagination`', default: rest.defaultLimit, example: 10 }),
        maxLimit: doc(positiveInteger, {
          description: 'largest REST page; also how many records `GET /api/users` and `GET /api/upload/files` list without `pagination`',
          default: rest.maxLimit,
          example: 250,
        }),
        bodyLimit: doc(positiveInteger, {
          description: 'largest request body in bytes on every route, `/graphql` included (uploads have `upload.config.sizeLimit`)',
          default: rest.bodyLimit,
          example: 5_242_880,
        }),
        strictQuery: doc(boolean, {
          description:
            '`false`: an unknown top-level query key (a cache-buster) is ignored, as Strapi ignores it; `true`: a 400 naming it. Unknown keys inside `filters`, `sort`, `fields`, `populate` and `pagination` are always a 400',
          default: rest.strictQuery,
        }),
        maxPopulateDepth: doc(positiveInteger, {
          description: 'how many relations, components and zone components deep `populate` may reach (`a.b.c` is 3); deeper is a 400 naming the path',
          default: rest.maxPopulateDepth,
          example: 5,
        }),
      },
      // `withCount` is in Strapi's project template; Folio always counts, which is what its default (true) means.
      { ignored: ['withCount'] },
    ).superRefine((config, ctx) => pageWithinMaximum(config, rest, ctx)),
    {},
  ),
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
    {
      koa: doc(boolean, { description: "trust the proxy's `X-Forwarded-For`", example: true }),
      maxIpsCount: doc(integer({ min: 0 }), { description: 'keep only the last addresses of the header, those your proxies wrote (1 for one proxy; 0: all)', default: 0, example: 1 }),
      ipHeader: doc(headerName, { description: 'read another header', default: 'X-Forwarded-For', example: 'CF-Connecting-IP' }),
    },
    // Proxies for the requests Strapi itself sends (license checks, webhooks); Folio sends none.
    { ignored: ['global', 'http', 'https', 'fetch'] },
  ),
  'a boolean or an object such as { "koa": true }',
);

const { server } = DEFAULTS;
export const serverFileSchema = object(
  {
    host: doc(nonEmptyString, { description: 'where to listen (env `HOST`)', default: server.host, example: '0.0.0.0' }),
    port: doc(integer({ min: 0, max: 65535 }), { description: 'where to listen (env `PORT`; 0 picks a free port)', default: server.port, example: 8080 }),
    proxy: doc(proxy, {
      description:
        "behind a reverse proxy, `{ \"koa\": true }` counts sign-in and sign-up attempts per client by the first address of `X-Forwarded-For` instead of the socket's. Turn it on only behind a proxy that sets the header: otherwise clients choose their own address. Strapi v4's `true` is taken as `{ \"koa\": true }`",
      default: false,
      example: { koa: true, maxIpsCount: 1 },
    }),
    maxHeaderSize: doc(integer({ min: 1024, max: 1024 * 1024 }), {
      description:
        "bytes of request line and headers together; more is a 431 in the error envelope. `filters[id][$in]` with 1,000 ids is ~26 KB of URL: raise it for such clients, and the reverse proxy's limit with it",
      default: server.maxHeaderSize,
      example: 65536,
    }),
    url: doc(httpUrl, {
      description: 'where clients reach the server (behind a proxy, its public address): the links Folio mails start with it',
      defaultText: '`http://<host>:<port>`',
      example: 'https://api.example.com',
    }),
    metrics: doc(
      either(
        boolean,
        object({ token: string({ expected: 'a non-empty string', secret: true }).meta({ description: 'asked for as `Authorization: Bearer <token>`' }) }),
        'a boolean or an object such as { "token": "…" }',
      ),
      { description: '`/metrics` in Prometheus\' text format: `true` for anyone who reaches it, `{ token }` only with that bearer token', default: false, example: { token: 'a-long-random-string' } },
    ),
    workers: doc(either(integer({ min: 1, max: 256 }), z.literal('auto'), 'an integer from 1 to 256, or "auto"'), {
      description:
        '`folio start` serves with this many processes on the one port, each with its own reader threads, all on the one data folder ([workers.md](workers.md); env `FOLIO_WORKERS`, flag `--workers`). `"auto"`: one per core on the embedded store from 4 cores (1 below: measured on 2 cores, two workers answered less than one), 1 on MongoDB (start instances there instead: [production.md](production.md)); 1 is a single process',
      default: server.workers,
      example: 2,
    }),
    heapGrowingPercent: doc(integer({ min: 0, max: 400 }), {
      description:
        "How far V8 lets each process's heap grow past what its last full collection left live before it collects again, in percent (V8's `--heap-growing-percent`; env `FOLIO_HEAP_GROWING_PERCENT`). Under answers of tens of megabytes V8's own policy (`0`) let the heap reach many times what was live: four anonymous clients reading aliased pages of 100 KB titles took a process started as `folio start` is (with bin/folio.js's `--max-semi-space-size=64`) to 1.35 GB resident, 879 MB at 20 (without that flag 0.8–1.2 GB, 573–647 MB at 20), which costs event-loop pauses and throughput: `softMemoryLimit` lowers it only where memory runs short ([security.md](security.md#memory))",
      default: server.heapGrowingPercent,
      example: 0,
    }),
    softMemoryLimit: doc(limitOrOff, {
      description:
        "Resident bytes each process's garbage collection is steered to stay under (env `FOLIO_SOFT_MEMORY_LIMIT`; `false` turns it off): after each collection Folio lets the heap grow past what was live only by the room left under the limit, 15 % at least once past it, and leaves V8's own policy (or `heapGrowingPercent`) where there is room for it. Like Go's `GOMEMLIMIT` it trades processor time for memory only where memory runs short: a fixed 15 % everywhere cost the read workloads up to 16 % of their throughput at 50,000 articles ([security.md](security.md#memory))",
      default: server.softMemoryLimit,
      example: 1024 * 1024 * 1024,
    }),
  },
  // In every Strapi project's server.js: Koa session keys and webhook options, which Folio has no use for.
  { ignored: ['app', 'webhooks'] },
);

export const MONGODB_URI_PATTERN = /^mongodb(\+srv)?:\/\/\S+$/;

export const databaseFileSchema = object(
  {
    client: doc(oneOf(['embedded', 'mongodb']), { description: '`embedded` (SQLite under `--data`, [embedded-store.md](embedded-store.md)) or `mongodb`', default: DEFAULTS.database.client, example: 'mongodb' }),
    uri: doc(string({ pattern: MONGODB_URI_PATTERN, expected: 'a mongodb:// or mongodb+srv:// URL', secret: true }), {
      description: 'the MongoDB connection string, required with `mongodb` (env `DATABASE_URL` overrides the file)',
      example: 'mongodb://db:27017/folio',
    }),
    options: doc(anyObject, { description: 'MongoDB driver options (`serverSelectionTimeoutMS` defaults to 2000)', default: {}, example: { tls: true } }),
  },
  { hints: { connection: 'is Strapi\'s SQL connection shape, which Folio does not use: write { "client": "embedded" } or { "client": "mongodb", "uri": "mongodb://…" }' } },
);

const apiToken = object({
  name: nonEmptyString.meta({ description: "the token's name, unique", example: 'ci' }),
  type: oneOf(['full-access', 'read-only', 'custom']).meta({ description: 'what the token may do' }),
  accessKey: secret.meta({ description: 'the key clients send as `Authorization: Bearer <key>`' }),
  permissions: doc(arrayOf(permission), { description: "a custom token's actions", example: ['api::article.article.find'] }),
  description: doc(anyString, { description: 'what the token is for' }),
});

export const adminFileSchema = object(
  {
    apiTokens: doc(
      arrayOf(apiToken).superRefine((tokens, ctx) => {
        tokens.forEach((token, index) => {
          if (token.type === 'custom' && !token.permissions?.length) {
            ctx.addIssue({ code: 'custom', path: [index, 'permissions'], message: 'must list at least one permission for a custom token' });
          }
          if (token.type !== 'custom' && token.permissions !== undefined) {
            ctx.addIssue({ code: 'custom', path: [index, 'permissions'], message: `only apply to custom tokens (this one is ${token.type})` });
          }
        });
        // tokens are told apart by name and key alone
        listedOnce(tokens, (token) => token.name, (index) => [index, 'name'], (name, first) => `"${name}" is already the name of apiTokens[${first}]`, ctx);
        listedOnce(tokens, (token) => token.accessKey, (index) => [index, 'accessKey'], (_, first) => `is the same as apiTokens[${first}].accessKey`, ctx);
      }),
      { description: 'API tokens seeded at start', default: [] },
    ),
    apiToken: doc(object({ salt: doc(secret, { description: 'salt of the keyed hashes API tokens are stored as', defaultText: 'env `API_TOKEN_SALT`' }) }), {}),
  },
  // In every Strapi project's admin.js: admin-panel auth, data transfer and feature flags, which Folio does not serve.
  { ignored: ['auth', 'transfer', 'flags', 'secrets'] },
);

const STRING_OR_LIST = 'a string or an array of strings';
const stringOrList = either(string({ expected: STRING_OR_LIST }), arrayOf(nonEmptyString), STRING_OR_LIST);
const CORS = defaultCors();

export const corsConfigSchema = object({
  origin: doc(stringOrList, { description: 'a list, or one string with commas, allows only those origins', default: CORS.origin, example: ['https://example.com'] }),
  maxAge: doc(integer({ min: 0 }), { description: 'how long a preflight may be cached, in seconds', default: CORS.maxAge }),
  credentials: doc(boolean, { description: '`Access-Control-Allow-Credentials`', default: CORS.credentials }),
  methods: doc(stringOrList, { description: 'allowed methods', default: CORS.methods }),
  headers: doc(stringOrList, { description: 'allowed request headers', default: CORS.headers }),
  expose: doc(stringOrList, { description: 'headers the browser may read', example: ['X-Total-Count'] }),
  // Accepted for Strapi configs: Folio's error answers carry the CORS headers whatever this says.
  keepHeadersOnError: doc(boolean, { description: 'accepted for Strapi configs: error answers carry the CORS headers anyway' }),
  // Strapi 5 ignores it with a warning; resolveMiddlewares refuses `false`, which would leave CORS on.
  enabled: doc(boolean, { description: 'ignored by Strapi 5; `false` is refused (remove `strapi::cors` from the array to turn CORS off)' }),
});

/** Strapi's `config/middlewares`: names, or `{ name, config }`; `resolve` points at a custom middleware's file. */
export const middlewaresFileSchema = arrayOf(
  either(
    nonEmptyString,
    object({
      name: doc(nonEmptyString, { description: 'the middleware', example: 'strapi::cors' }),
      config: doc(anyObject, { description: "its settings (below for Folio's two)" }),
      resolve: doc(nonEmptyString, { description: "a custom middleware's file: refused, Folio does not run custom Koa middlewares" }),
    }),
    'a middleware name or an object such as { "name": "strapi::cors", "config": { … } }',
  ),
);

const webhook = object({
  name: string({ pattern: /^[\w.-]{1,64}$/, expected: 'a name of letters, digits, ".", "_" or "-" (at most 64)' }).meta({ description: 'unique name', example: 'search-index' }),
  url: httpUrl.meta({ description: 'where deliveries are POSTed', example: 'https://hooks.example.com/folio' }),
  events: arrayOf(oneOf(WEBHOOK_EVENTS), { nonEmpty: true }).meta({ description: 'the events delivered', example: ['entry.create', 'entry.update'] }),
  headers: doc(recordOf(string({ expected: 'a non-empty header value', secret: true })), { description: 'headers sent with each delivery', default: WEBHOOK_DEFAULTS.headers, example: { Authorization: 'Bearer …' } }),
  enabled: doc(boolean, { description: '`false` delivers nothing', default: WEBHOOK_DEFAULTS.enabled }),
  secret: doc(string({ secret: true }), { description: 'signs deliveries (`Folio-Signature`, see [events.md](events.md))' }),
  concurrency: doc(integer({ min: 1, max: 64 }), { description: 'deliveries in flight at once', default: WEBHOOK_DEFAULTS.concurrency }),
  timeout: doc(integer({ min: 100, max: 300_000 }), { description: "milliseconds to wait for the receiver's answer", default: WEBHOOK_DEFAULTS.timeout }),
  maxAttempts: doc(integer({ min: 1, max: 100 }), { description: 'attempts before a delivery is dead-lettered', default: WEBHOOK_DEFAULTS.maxAttempts }),
});

/**
 * `config/webhooks`: `[{ name, url, events, headers, enabled }]`, Strapi's webhook fields, plus a `secret`
 * to sign deliveries and the delivery knobs. A `.js` file reads secrets with `env()`.
 */
export const webhooksFileSchema = arrayOf(webhook).superRefine((webhooks, ctx) =>
  // deliveries are keyed by the webhook's name
  listedOnce(webhooks, ({ name }) => name, (index) => [index, 'name'], (name) => `"${name}" is used by another webhook`, ctx),
);

/** Every config file's schema, by file name: start-up, `folio check` and the docs all read this one list. */
export const CONFIG_FILE_SCHEMAS = {
  plugins: pluginsFileSchema,
  api: apiFileSchema,
  server: serverFileSchema,
  database: databaseFileSchema,
  admin: adminFileSchema,
  middlewares: middlewaresFileSchema,
  webhooks: webhooksFileSchema,
} as const;

export type ConfigFileName = keyof typeof CONFIG_FILE_SCHEMAS;
export type ConfigFile<N extends ConfigFileName> = z.output<(typeof CONFIG_FILE_SCHEMAS)[N]>;
