import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { pluginsFileShape } from './file-shapes';
import type { ShapeOutput } from './shape';
import type { FolioConfig, ResponseCacheConfig } from './types';

type PluginsFile = ShapeOutput<typeof pluginsFileShape>;
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
  const { apolloServer, persistedOperations, responseCache, ...config } = file?.config ?? {};
  const graphql: FolioConfig['graphql'] = {
    ...defaults,
    ...config,
    enabled: file?.enabled ?? defaults.enabled,
    responseCache: responseCache === undefined || responseCache === false ? defaults.responseCache : { ...RESPONSE_CACHE_DEFAULTS, ...(responseCache === true ? {} : responseCache) },
  };
  if (persistedOperations) {
    graphql.persistedOperations = {
      documents: readPersistedDocuments(resolve(configDir, persistedOperations.store), report),
      allowArbitraryOperations: persistedOperations.allowArbitraryOperations ?? true,
    };
  }
  if (apolloServer?.introspection !== undefined) {
    if (config.introspection !== undefined && config.introspection !== apolloServer.introspection) {
      report('graphql.config.apolloServer.introspection', 'contradicts graphql.config.introspection; keep one');
    }
    graphql.introspection = config.introspection ?? apolloServer.introspection;
  }
  if (graphql.defaultLimit > graphql.maxLimit) {
    report('graphql.config.defaultLimit', `(${graphql.defaultLimit}) must not exceed maxLimit (${graphql.maxLimit})`);
  }
  return graphql;
}

function resolveI18n(file: PluginsFile['i18n'], defaults: FolioConfig['i18n'], report: Report): FolioConfig['i18n'] {
  const locales = file?.config?.locales ?? defaults.locales;
  // A project listing only other locales means one of them, not an unlisted 'en'.
  const defaultLocale = file?.config?.defaultLocale ?? (locales.includes(defaults.defaultLocale) ? defaults.defaultLocale : locales[0]);
  for (const [index, locale] of locales.entries()) {
    if (locales.indexOf(locale) !== index) report(`i18n.config.locales[${index}]`, `"${locale}" is listed twice`);
  }
  if (!locales.includes(defaultLocale)) {
    report('i18n.config.defaultLocale', `"${defaultLocale}" must be one of the locales (${locales.join(', ')})`);
  }
  return { locales, defaultLocale };
}

function resolveUsersPermissions(
  file: PluginsFile['users-permissions'],
  defaults: FolioConfig['usersPermissions'],
  jwtSecretFromEnv: string | undefined,
): FolioConfig['usersPermissions'] {
  const config = file?.config ?? {};
  const jwtSecret = config.jwtSecret ?? jwtSecretFromEnv;
  return {
    ...(jwtSecret === undefined ? {} : { jwtSecret }),
    jwt: { ...defaults.jwt, ...config.jwt },
    roles: config.roles ?? defaults.roles,
    rateLimit: { ...defaults.rateLimit, ...config.rateLimit },
  };
}

/** The responsive format every large enough image gets, beside those of the configured breakpoints. */
export const THUMBNAIL_FORMAT = 'thumbnail';

/** What a format may be called: its name starts its files' names (`small_<hash><ext>`, within the media's stored names). */
const FORMAT_NAME = /^[A-Za-z0-9_]+$/;

function resolveUpload(file: PluginsFile['upload'], defaults: FolioConfig['upload'], report: Report): FolioConfig['upload'] {
  // `breakpoints` replaces the default set whole, as in Strapi: listing `small` alone means only `small`.
  const upload = { ...defaults, ...file?.config };
  for (const name of Object.keys(upload.breakpoints)) {
    if (!FORMAT_NAME.test(name)) report(`upload.config.breakpoints.${name}`, 'is not a usable format name: letters, digits and _ only (it starts file names)');
    else if (name === THUMBNAIL_FORMAT) report(`upload.config.breakpoints.${name}`, 'is the name of the thumbnail format, which is always made');
  }
  return upload;
}

/** Plugin settings with defaults filled in, plus the checks that involve more than one key. */
export function resolvePlugins(
  file: PluginsFile | undefined,
  defaults: FolioConfig,
  env: NodeJS.ProcessEnv,
  report: Report,
  configDir: string,
): Pick<FolioConfig, 'graphql' | 'i18n' | 'usersPermissions' | 'upload' | 'customFields'> {
  return {
    graphql: resolveGraphql(file?.graphql, defaults.graphql, report, configDir),
    i18n: resolveI18n(file?.i18n, defaults.i18n, report),
    usersPermissions: resolveUsersPermissions(file?.['users-permissions'], defaults.usersPermissions, env.JWT_SECRET || undefined),
    upload: resolveUpload(file?.upload, defaults.upload, report),
    customFields: { ...defaults.customFields, ...file?.['custom-fields']?.config },
  };
}
