import { DEFAULT_EMAIL_TEMPLATES } from './email-templates';
import { defaultSecurity } from './resolve-security';
import type { CorsConfig, FolioConfig } from './types';

/** Every setting's value when nothing configures it; also a base for configs built in tests. */
export function defaultConfig(env = 'development'): FolioConfig {
  return {
    env,
    server: { host: '127.0.0.1', port: 1337, proxy: false, maxHeaderSize: 16 * 1024, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 },
    graphql: {
      enabled: true,
      endpoint: '/graphql',
      shadowCRUD: true,
      playgroundAlways: false,
      depthLimit: 10,
      amountLimit: 100,
      defaultLimit: 10,
      maxLimit: 100,
      responseCache: false,
      maxFilterStringLength: 1000,
      maxAliases: 30,
      maxTokens: 5000,
      maxDirectives: 50,
      maxCost: 150_000,
      maxInputDepth: 100,
      maxSortKeys: 10,
      maxResponseBytes: 8 * 1024 * 1024,
      maxReadBytes: 16 * 1024 * 1024,
      yoga: {},
    },
    i18n: { locales: ['en'], defaultLocale: 'en' },
    usersPermissions: {
      jwt: { expiresIn: '30d' },
      // `public` and `authenticated` exist even when unlisted, with no permissions.
      roles: {},
      // Per client IP on the auth routes: enough for people typing passwords, too few for guessing them.
      rateLimit: { max: 20, windowMs: 60_000 },
      emailConfirmation: false,
      emailTemplates: { resetPassword: { ...DEFAULT_EMAIL_TEMPLATES.resetPassword }, emailConfirmation: { ...DEFAULT_EMAIL_TEMPLATES.emailConfirmation } },
    },
    upload: { provider: 'local', sizeLimit: 200 * 1024 * 1024, allowedTypes: [], directory: 'uploads', breakpoints: { large: 1000, medium: 750, small: 500 } },
    rest: { defaultLimit: 25, maxLimit: 100, bodyLimit: 1024 * 1024, strictQuery: false, maxPopulateDepth: 10 },
    database: { client: 'embedded', options: {} },
    admin: { apiTokens: [] },
    cors: defaultCors(),
    security: defaultSecurity(),
    webhooks: [],
    customFields: {},
    relationTargets: {},
  };
}

/** Strapi's `strapi::cors` defaults: for the keys its config leaves out, and for a project without `config/middlewares`. */
export function defaultCors(): CorsConfig {
  return {
    origin: '*',
    maxAge: 31536000,
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
    headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
  };
}

/** What a webhook in `config/webhooks` gets for the keys it leaves out. */
export const WEBHOOK_DEFAULTS = { headers: {}, enabled: true, concurrency: 4, timeout: 10_000, maxAttempts: 8 } as const;

/** How long Folio waits on an SMTP server, in ms: a request that mails must not hang on one that does not answer. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;
