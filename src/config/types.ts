import type { ScalarAttributeType } from '../models/types';

/** The whole, validated configuration of a Folio instance (Strapi's config shapes, defaults applied). */

export interface GraphqlConfig {
  /** `plugins.graphql.enabled`; false serves no GraphQL endpoint. @default true */
  enabled: boolean;
  /** @default '/graphql' */
  endpoint: string;
  /** @default true */
  shadowCRUD: boolean;
  /** @default false */
  playgroundAlways: boolean;
  /** introspection outside production; on in production only when true. @default undefined */
  introspection?: boolean;
  /** root field is depth 0, as Strapi counts. @default 10 */
  depthLimit: number | false;
  /** no list in a response may hold more items. @default 100 */
  amountLimit: number | false;
  /** @default 10 */
  defaultLimit: number;
  /** @default 100 */
  maxLimit: number;
  /** longest string accepted by a filter operator. @default 1000 */
  maxFilterStringLength: number;
  /** graphql-armor limits */
  maxAliases: number | false;
  maxTokens: number | false;
  maxDirectives: number | false;
  maxCost: number | false;
  /** input values (variables, literals) nested deeper are refused before graphql-js coerces them recursively. @default 100 */
  maxInputDepth: number | false;
  /** keys one `sort` argument may name; each once, even when `false` turns the count off. @default 10 */
  maxSortKeys: number | false;
  /** bytes of one answer, on both surfaces: a larger one is refused (a 400) rather than sent. @default 8 MiB */
  maxResponseBytes: number;
  /** bytes of documents one query or mutation may read from the store, on both surfaces. @default 16 MiB */
  maxReadBytes: number | false;
  /** options handed to graphql-yoga */
  yoga: Record<string, unknown>;
  /** trusted documents: operations by hash, read at start from `persistedOperations.store` */
  persistedOperations?: PersistedOperationsConfig;
  /** answers of queries kept per principal until a write to a type they hold, or `ttl` ms. @default false */
  responseCache: ResponseCacheConfig | false;
}

export interface ResponseCacheConfig {
  /** ms an answer is kept at most (bounds what writes elsewhere leave stale, see README). @default 60000 */
  ttl: number;
  /** answers kept at most (least recently used go first). @default 1000 */
  max: number;
}

export interface I18nConfig {
  /** @default ['en'] */
  locales: string[];
  /** @default 'en' */
  defaultLocale: string;
}

export interface RoleConfig {
  description?: string;
  permissions: string[];
}

/** One of the mails users-permissions sends: Strapi's template options, resolved. */
export interface AccountMailTemplate {
  /** `"Name" <address>`; unset: the e-mail plugin's `defaultFrom` */
  from?: string;
  /** unset: the e-mail plugin's `defaultReplyTo` */
  replyTo?: string;
  /** `<%= USER.username %>`-style tags only (see email-templates) */
  subject: string;
  message: string;
}

export interface UsersPermissionsConfig {
  jwtSecret?: string;
  jwt: { expiresIn: string };
  roles: Record<string, RoleConfig>;
  /** per client IP, over `windowMs` */
  rateLimit: { max: number; windowMs: number };
  /** Strapi's advanced setting `email_confirmation`: sign-up mails a link, sign-in waits for it. @default false */
  emailConfirmation: boolean;
  /** where the confirmation link leads once followed (`email_confirmation_redirection`). @default '/' */
  emailConfirmationRedirection?: string;
  /** the page of the front end that takes the reset code (`email_reset_password`): the reset mail's `URL` */
  emailResetPassword?: string;
  emailTemplates: { resetPassword: AccountMailTemplate; emailConfirmation: AccountMailTemplate };
}

/** The e-mail providers Folio has (Strapi's `@strapi/provider-email-<name>`). */
export const EMAIL_PROVIDERS = ['nodemailer'] as const;
export type EmailProviderName = (typeof EMAIL_PROVIDERS)[number];

/** nodemailer's SMTP options Folio takes; the timeouts bound how long a request waits for a mail server that does not answer. */
export interface SmtpOptions {
  host: string;
  /** @default 587, or 465 when `secure` */
  port?: number;
  /** TLS from the start (port 465); otherwise STARTTLS when the server offers it */
  secure?: boolean;
  requireTLS?: boolean;
  ignoreTLS?: boolean;
  auth?: { user: string; pass: string };
  /** node's TLS options (`rejectUnauthorized`, `servername`…) */
  tls?: Record<string, unknown>;
  /** the name Folio greets the server with. @default the machine's host name */
  name?: string;
  /** ms. @default 10000 */
  connectionTimeout: number;
  /** ms. @default 10000 */
  greetingTimeout: number;
  /** ms of silence on an open connection. @default 30000 */
  socketTimeout: number;
}

/** Strapi's `email` plugin: `config/plugins` `email.config`. */
export interface EmailConfig {
  provider: EmailProviderName;
  providerOptions: SmtpOptions;
  defaultFrom: string;
  defaultReplyTo?: string;
}

/** Where uploaded files are kept: `local`, a folder under the data directory; `gridfs`, the MongoDB database's GridFS. */
export const UPLOAD_PROVIDERS = ['local', 'gridfs'] as const;
export type UploadProviderName = (typeof UPLOAD_PROVIDERS)[number];

export interface UploadConfig {
  /** @default 'gridfs' on MongoDB (every instance serves every file), 'local' on the embedded engine */
  provider: UploadProviderName;
  /** bytes. @default 200 MB */
  sizeLimit: number;
  /** MIME types allowed (checked on content); empty = any */
  allowedTypes: string[];
  /** where the local provider keeps files; relative to the data directory. @default 'uploads' */
  directory: string;
  /**
   * Strapi's responsive formats: name → largest width and height, for the smaller versions made of
   * raster images beside the `thumbnail`. @default { large: 1000, medium: 750, small: 500 }
   */
  breakpoints: Record<string, number>;
}

export interface PersistedOperationsConfig {
  /** hash → document, from the store file */
  documents: Record<string, string>;
  /** false: only persisted operations run on /graphql (REST, Folio's own compiled operations, always runs). @default true */
  allowArbitraryOperations: boolean;
}

export interface RestConfig {
  /** @default 25 */
  defaultLimit: number;
  /** @default 100 */
  maxLimit: number;
  /** bytes. @default 1 MB */
  bodyLimit: number;
  /** true: an unknown top-level query key is a 400; false: ignored, as Strapi does. @default false */
  strictQuery: boolean;
  /** how many relations, components and zones deep `populate` may go (`a.b.c` is 3). @default 10 */
  maxPopulateDepth: number;
}

export interface DatabaseConfig {
  client: 'embedded' | 'mongodb';
  uri?: string;
  options: Record<string, unknown>;
}

export interface ApiTokenSeed {
  name: string;
  type: 'full-access' | 'read-only' | 'custom';
  accessKey: string;
  permissions?: string[];
  description?: string;
}

/** Strapi's `strapi::cors` settings, answered by the HTTP front on every route. */
export interface CorsConfig {
  /** `'*'`; one origin, sent whatever the request's; or the origins allowed (a list, or one string with commas). @default '*' */
  origin: string | string[];
  /** seconds a browser may keep a preflight answer; 0 sends no `Access-Control-Max-Age`. @default 31536000 */
  maxAge: number;
  /** @default true */
  credentials: boolean;
  /** @default ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] */
  methods: string | string[];
  /** request headers a preflight may ask for; empty allows whatever it asks. @default ['Content-Type', 'Authorization', 'Origin', 'Accept'] */
  headers: string | string[];
  /** response headers scripts may read. @default unset */
  expose?: string | string[];
}

/**
 * Strapi's `server.proxy` (`{ koa: true }`): the client's address is read from a header its reverse
 * proxy sets, as koa's `ctx.ip` reads it, instead of from the socket (which is the proxy's).
 */
export interface TrustedProxy {
  /** lower case. @default 'x-forwarded-for' */
  ipHeader: string;
  /** how many addresses to keep from the end of the header (one per proxy); 0 keeps them all, and the first is the client. @default 0 */
  maxIpsCount: number;
}

/**
 * Strapi's `strapi::security` (helmet's headers), resolved: the Content-Security-Policy's directives in
 * the order they are sent, and every other header with its value.
 */
export interface SecurityConfig {
  /** false sends no policy */
  contentSecurityPolicy: { directives: Record<string, string[]>; reportOnly: boolean } | false;
  /** header name (lower case) → value, in the order helmet sets them */
  headers: Record<string, string>;
}

/** Strapi's webhook event names. */
export const WEBHOOK_EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookConfig {
  name: string;
  url: string;
  events: WebhookEvent[];
  headers: Record<string, string>;
  /** @default true */
  enabled: boolean;
  /** key of the `Folio-Signature` HMAC; none: deliveries are not signed */
  secret?: string;
  /** deliveries in flight at once. @default 4 */
  concurrency: number;
  /** ms one delivery may take. @default 10000 */
  timeout: number;
  /** attempts before a delivery is dead-lettered (`folio webhook failed`). @default 8 */
  maxAttempts: number;
}

export interface FolioConfig {
  env: string;
  server: {
    host: string;
    port: number;
    /** false: the client is the socket's peer. @default false */
    proxy: TrustedProxy | false;
    /** bytes of request line and headers together (node's `maxHeaderSize`); more is a 431. @default 16384 */
    maxHeaderSize: number;
    /** `/metrics` in Prometheus' text format: off, open, or behind a bearer token. @default false */
    metrics: false | { token?: string };
    /** Strapi's `url`: where clients reach the server, for the links Folio mails. @default `http://<host>:<port>` */
    url?: string;
    /** processes serving the one port (`folio start`): `auto` is one per core on the embedded store from 4 cores, else 1; 1 on MongoDB. @default 'auto' */
    workers: number | 'auto';
    /** how far V8 lets the heap grow past what its last full collection left live, in percent; 0: V8's own policy. @default 0 */
    heapGrowingPercent: number;
    /** resident bytes of a process its heap's growth is steered to stay under (app/heap-growth); false: V8's policy, or heapGrowingPercent. @default 536870912 (512 MiB) */
    softMemoryLimit: number | false;
  };
  graphql: GraphqlConfig;
  i18n: I18nConfig;
  usersPermissions: UsersPermissionsConfig;
  /** absent: no e-mail provider, so nothing that mails (password reset, e-mail confirmation) is available; `false`: the same, on purpose (`email.enabled: false`) */
  email?: EmailConfig | false;
  upload: UploadConfig;
  rest: RestConfig;
  database: DatabaseConfig;
  admin: { apiTokens: ApiTokenSeed[]; apiTokenSalt?: string };
  /** false when `config/middlewares` leaves out `strapi::cors` */
  cors: CorsConfig | false;
  /** false when `config/middlewares` leaves out `strapi::security` */
  security: SecurityConfig | false;
  /** `config/webhooks`: where content events are delivered */
  webhooks: WebhookConfig[];
  /** custom fields' uids → the type they are stored as, over the well-known ones (`config/plugins` `custom-fields`) */
  customFields: Record<string, ScalarAttributeType>;
  /** plugin content types' uids → the project's content type their relations are served as relations to, or false: left out without a warning (`config/plugins` `relation-targets`) */
  relationTargets: Record<string, string | false>;
  /** the files settings came from, for problems found once the schema is built (unknown permissions) */
  sources?: { plugins: string; admin: string };
}
