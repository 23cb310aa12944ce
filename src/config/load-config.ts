import { join, resolve } from 'node:path';
import { ConfigError, type ConfigProblem } from './config-error';
import { defaultConfig } from './defaults';
import { createEnvHelper, type EnvHelper } from './env-helper';
import { validate } from './config-schema';
import { CONFIG_FILE_SCHEMAS, type ConfigFile, type ConfigFileName } from './file-schemas';
import { readConfigFile } from './read-config-file';
import { resolveAdmin } from './resolve-admin';
import { resolveDatabase } from './resolve-database';
import { resolveMiddlewares } from './resolve-middlewares';
import { resolvePlugins } from './resolve-plugins';
import { resolveServer, type ServerOverrides } from './resolve-server';
import { resolveWebhooks } from './resolve-webhooks';
import type { FolioConfig } from './types';

export { ConfigError, type ConfigProblem } from './config-error';

export interface LoadConfigOptions {
  /** folder of optional `plugins`, `api`, `server`, `database`, `admin`, `middlewares`, `webhooks` files (`.json` or `.js`) */
  configDir: string;
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
  /** command-line flags: they win over everything else */
  overrides?: ServerOverrides;
}

/** One file read and validated against its schema: its value (undefined when absent or wrong) and its name for messages. */
function readSection<N extends ConfigFileName>(configDir: string, name: N, env: EnvHelper, problems: ConfigProblem[]): { source: string; value?: ConfigFile<N> } {
  const found = readConfigFile(configDir, name, env, problems);
  // Named even when absent, so cross-key problems about defaults still point at the file to create.
  const source = found?.file ?? join(configDir, `${name}.json`);
  if (!found) return { source };
  const { value, issues } = validate(CONFIG_FILE_SCHEMAS[name], found.value);
  problems.push(...issues.map(({ path, message }) => ({ source, path, message })));
  return { source, value: value as ConfigFile<N> | undefined };
}

/**
 * Reads Strapi-shaped config files, applies defaults, `PORT`/`HOST`/`DATABASE_URL`/`JWT_SECRET`/`API_TOKEN_SALT`/`NODE_ENV` and the
 * command-line overrides, and throws one ConfigError naming the file and key of every wrong setting.
 */
export function loadConfig({ configDir, env = process.env, overrides = {} }: LoadConfigOptions): FolioConfig {
  const problems: ConfigProblem[] = [];
  const helper = createEnvHelper(env);
  const plugins = readSection(configDir, 'plugins', helper, problems);
  const api = readSection(configDir, 'api', helper, problems);
  const server = readSection(configDir, 'server', helper, problems);
  const database = readSection(configDir, 'database', helper, problems);
  const admin = readSection(configDir, 'admin', helper, problems);
  const middlewares = readSection(configDir, 'middlewares', helper, problems);
  const webhooks = readSection(configDir, 'webhooks', helper, problems);

  const defaults = defaultConfig(env.NODE_ENV || 'development');
  const databaseConfig = resolveDatabase(database.value, database.source, env, problems);
  const config: FolioConfig = {
    env: defaults.env,
    server: resolveServer(server.value, defaults.server, env, overrides, problems),
    ...resolvePlugins(plugins.value, defaults, env, (path, message) => problems.push({ source: plugins.source, path, message }), configDir, databaseConfig.client),
    rest: { ...defaults.rest, ...api.value?.rest },
    database: databaseConfig,
    admin: resolveAdmin(admin.value, env.API_TOKEN_SALT || undefined),
    ...resolveMiddlewares(middlewares.value, middlewares.source, problems),
    webhooks: resolveWebhooks(webhooks.value),
    sources: { plugins: plugins.source, admin: admin.source },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * Where `graphql.config.persistedOperations.store` points (absolute), or undefined when it is not set: read
 * from the plugins file alone, so `folio persisted add` can name the store before it exists.
 */
export function persistedStorePath({ configDir, env = process.env }: Omit<LoadConfigOptions, 'overrides'>): string | undefined {
  const problems: ConfigProblem[] = [];
  const plugins = readSection(configDir, 'plugins', createEnvHelper(env), problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const store = plugins.value?.graphql?.config?.persistedOperations?.store;
  return store === undefined ? undefined : resolve(configDir, store);
}
