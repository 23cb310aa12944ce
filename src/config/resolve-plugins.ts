import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConfigFile } from './file-schemas';
import { SMTP_TIMEOUTS } from './defaults';
import type { AccountMailTemplate, EmailConfig, FolioConfig, ResponseCacheConfig } from './types';

type PluginsFile = ConfigFile<'plugins'>;
type Report = (path: string, message: string) => void;

/** The store file of trusted documents (`{ "<hash>": "<document>" }`), relative to the config folder. */
function readPersistedDocuments(path: string, report: Report): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    report('graphql.config.persistedOperations.store', `could not be read (${path}): ${(error as Error).message}`);
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((document) => typeof document === 'string')) {
    report('graphql.config.persistedOperations.store', `must hold an object of hash → document strings (${path})`);
    return {};
  }
  return parsed as Record<string, string>;
}

const RESPONSE_CACHE_DEFAULTS: ResponseCacheConfig = { ttl: 60_000, max: 1000 };

function resolveGraphql(file: PluginsFile['graphql'], defaults: FolioConfig['graphql'], report: Report, configDir: string): FolioConfig['graphql'] {
  const { apolloServer, persistedOperations, responseCache, plugins, ...config } = file?.config ?? {};
  const yoga = config.yoga ?? defaults.yoga;
  const graphql: FolioConfig['graphql'] = {
    ...defaults,
    ...config,
    // one list for the server to run: `plugins` is the shorter spelling of `yoga.plugins`
    yoga: plugins ? { ...yoga, plugins: [...plugins, ...(Array.isArray(yoga.plugins) ? yoga.plugins : [])] } : yoga,
    enabled: file?.enabled ?? defaults.enabled,
    responseCache: responseCache === undefined || responseCache === false ? defaults.responseCache : { ...RESPONSE_CACHE_DEFAULTS, ...(responseCache === true ? {} : responseCache) },
  };
  if (persistedOperations) {
    graphql.persistedOperations = {
      documents: readPersistedDocuments(resolve(configDir, persistedOperations.store), report),
      allowArbitraryOperations: persistedOperations.allowArbitraryOperations ?? true,
    };
  }
  if (apolloServer?.introspection !== undefined) graphql.introspection = config.introspection ?? apolloServer.introspection;
  return graphql;
}

function resolveI18n(file: PluginsFile['i18n'], defaults: FolioConfig['i18n']): FolioConfig['i18n'] {
  const locales = file?.config?.locales ?? defaults.locales;
  // A project listing only other locales means one of them, not an unlisted 'en'.
  const defaultLocale = file?.config?.defaultLocale ?? (locales.includes(defaults.defaultLocale) ? defaults.defaultLocale : locales[0]);
  return { locales, defaultLocale };
}

type TemplateFile = NonNullable<NonNullable<NonNullable<NonNullable<PluginsFile['users-permissions']>['config']>['emailTemplates']>['reset_password']>;

/** Strapi's template options (`object`, `response_email`, `from: { name, email }`) over its defaults. */
function resolveTemplate(file: TemplateFile | undefined, defaults: AccountMailTemplate): AccountMailTemplate {
  const from = file?.from && (file.from.name ? `"${file.from.name.replace(/["\\]/g, '\\$&')}" <${file.from.email}>` : file.from.email);
  return {
    ...defaults,
    ...(from ? { from } : {}),
    ...(file?.response_email ? { replyTo: file.response_email } : {}),
    ...(file?.object ? { subject: file.object } : {}),
    ...(file?.message ? { message: file.message } : {}),
  };
}

function resolveUsersPermissions(
  file: PluginsFile['users-permissions'],
  defaults: FolioConfig['usersPermissions'],
  jwtSecretFromEnv: string | undefined,
): FolioConfig['usersPermissions'] {
  const config = file?.config ?? {};
  const jwtSecret = config.jwtSecret ?? jwtSecretFromEnv;
  const { email_confirmation, email_confirmation_redirection, email_reset_password } = config.advanced ?? {};
  return {
    ...(jwtSecret === undefined ? {} : { jwtSecret }),
    jwt: { ...defaults.jwt, ...config.jwt },
    roles: config.roles ?? defaults.roles,
    rateLimit: { ...defaults.rateLimit, ...config.rateLimit },
    emailConfirmation: email_confirmation ?? defaults.emailConfirmation,
    ...(email_confirmation_redirection === undefined ? {} : { emailConfirmationRedirection: email_confirmation_redirection }),
    ...(email_reset_password === undefined ? {} : { emailResetPassword: email_reset_password }),
    emailTemplates: {
      resetPassword: resolveTemplate(config.emailTemplates?.reset_password, defaults.emailTemplates.resetPassword),
      emailConfirmation: resolveTemplate(config.emailTemplates?.email_confirmation, defaults.emailTemplates.emailConfirmation),
    },
  };
}

function resolveEmail(file: PluginsFile['email']): EmailConfig | false | undefined {
  if (file?.enabled === false) return false;
  // (file-schemas requires `config` unless `enabled` is false)
  if (!file?.config) return undefined;
  const { provider, providerOptions, settings } = file.config;
  return { provider, providerOptions: { ...SMTP_TIMEOUTS, ...providerOptions }, ...settings };
}

type DatabaseClient = FolioConfig['database']['client'];

// `breakpoints` replaces the default set whole, as in Strapi: listing `small` alone means only `small`.
// On MongoDB files go to GridFS unless the config says otherwise, so that every instance serves every file.
function resolveUpload(file: PluginsFile['upload'], defaults: FolioConfig['upload'], databaseClient: DatabaseClient, report: Report): FolioConfig['upload'] {
  const upload = { ...defaults, provider: databaseClient === 'mongodb' ? ('gridfs' as const) : defaults.provider, ...file?.config };
  if (upload.provider === 'gridfs' && databaseClient !== 'mongodb') report('upload.config.provider', '"gridfs" keeps files in MongoDB: it needs the mongodb database client');
  return upload;
}

/** Plugin settings with defaults filled in; the store of trusted documents read (file-schemas checked the rest). */
export function resolvePlugins(
  file: PluginsFile | undefined,
  defaults: FolioConfig,
  env: NodeJS.ProcessEnv,
  report: Report,
  configDir: string,
  databaseClient: DatabaseClient,
): Pick<FolioConfig, 'graphql' | 'i18n' | 'usersPermissions' | 'email' | 'upload' | 'customFields' | 'relationTargets'> {
  const email = resolveEmail(file?.email);
  return {
    graphql: resolveGraphql(file?.graphql, defaults.graphql, report, configDir),
    i18n: resolveI18n(file?.i18n, defaults.i18n),
    usersPermissions: resolveUsersPermissions(file?.['users-permissions'], defaults.usersPermissions, env.JWT_SECRET || undefined),
    ...(email === undefined ? {} : { email }),
    upload: resolveUpload(file?.upload, defaults.upload, databaseClient, report),
    customFields: { ...defaults.customFields, ...file?.['custom-fields']?.config },
    relationTargets: { ...defaults.relationTargets, ...file?.['relation-targets']?.config },
  };
}
