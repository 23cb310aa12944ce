import type { GraphQLSchema } from 'graphql';
import type { FolioConfig } from '../config/types';
import type { Models } from '../models/types';
import type { Store } from '../storage/types';
import type { Extension } from '../extensions/types';
import type { ProjectRouteTable } from '../project/route-table';
import type { Services } from '../context';
import { createDocumentService } from '../documents/document-service';
import { countFiles } from '../media/load-files';
import { createContentEvents, type ContentEvents } from '../events/content-events';
import { ensureIndexes } from '../documents/ensure-indexes';
import { backfillBigintSortKeys } from '../documents/bigint-sort-key';
import { buildSchema } from '../schema/build-schema';
import { createAuthenticator } from '../auth/authenticate';
import { loadAuthSecrets } from '../auth/auth-secrets';
import { createCredentials } from '../auth/credentials';
import { createGraphqlServer, type GraphqlServer } from '../graphql/create-graphql-server';
import { withModuleContentTypes, type FolioModuleFactory, type HttpRoute } from '../server/folio-module';
import { BUILT_IN_MODULES } from './built-in-modules';
import { createRestCalls } from '../rest-compiler/rest-calls';
import { checkPermissions } from '../config/check-permissions';
import { requiredScopes } from '../directives/auth';
import { permissionFor } from '../sdl/naming';
import type { FolioMetrics } from '../metrics/folio-metrics';
import { timedStore } from '../metrics/timed-store';

const CONTENT_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'] as const;

/** Wires one Folio instance from explicit dependencies: models, configuration, store, extensions. */

export interface FolioOptions {
  models: Models;
  config: FolioConfig;
  store: Store;
  /** absolute path; modules keep their files under it (uploads) */
  dataDir: string;
  extensions?: Extension[];
  /** the project's own routes, controllers, policies and middlewares (`src/api/<api>/`) */
  projectRoutes?: ProjectRouteTable;
  modules?: FolioModuleFactory[];
}

export interface Folio {
  services: Services;
  schema: GraphQLSchema;
  sdl: string;
  graphql: GraphqlServer;
  routes: HttpRoute[];
  /** what `/metrics` reports, when `server.metrics` is on */
  metrics?: FolioMetrics;
  /** the content events' outbox and webhook worker */
  events: Pick<ContentEvents, 'outbox' | 'nudge'>;
  /** stops the modules, last started first */
  stop(): Promise<void>;
}

export const createFolio = async (options: FolioOptions): Promise<Folio> => {
  // prom-client and @envelop/response-cache are loaded only by a server that turns them on (both off by default)
  const metrics = options.config.server.metrics === false ? undefined : (await import('../metrics/folio-metrics')).createFolioMetrics();
  if (!metrics) return assembleFolio(options, undefined);
  // The metrics run a monitor between scrapes: a start that fails, and every stop, must end it.
  try {
    const folio = await assembleFolio(options, metrics);
    return {
      ...folio,
      stop: async () => {
        await folio.stop();
        metrics.stop();
      },
    };
  } catch (error) {
    metrics.stop();
    throw error;
  }
};

const assembleFolio = async (
  { models: schemaModels, config, store: givenStore, dataDir, extensions = [], projectRoutes, modules = BUILT_IN_MODULES }: FolioOptions,
  metrics: FolioMetrics | undefined,
): Promise<Folio> => {
  const models = withModuleContentTypes(schemaModels, modules);
  const responseCache = config.graphql.responseCache === false ? undefined : (await import('../graphql/response-cache/response-cache')).createResponseCache(config.graphql.responseCache, models);
  const watched = responseCache ? responseCache.watch(givenStore) : givenStore;
  const store = metrics ? timedStore(watched, metrics) : watched;
  await ensureIndexes(models, store);
  await backfillBigintSortKeys(models, store);
  const events = createContentEvents({ models, config, store, dataDir });
  const documents = createDocumentService({ models, store: events.watch(store), i18n: config.i18n, recordChange: events.recordChange, countFiles: (ids) => countFiles(store, ids) });
  // before any module: a production start without secrets fails first
  const secrets = await loadAuthSecrets({ config, store, dataDir });
  const services: Services = { models, config, store, documents, events: events.feed, dataDir, credentials: createCredentials(secrets, config, store) };
  const built = modules.map((factory) => factory(services));
  const started: typeof built = [];
  const followed = responseCache?.follow(events.feed, events.outbox.recordedHere);
  const stop = async () => {
    await followed?.stop();
    await events.stop();
    for (const module of [...started].reverse()) await module.stop?.();
  };
  try {
    await events.start();
    const moduleExtensions = built.flatMap((module) => (module.extension ? [module.extension] : []));
    const { schema, sdl } = buildSchema(models, config, [...moduleExtensions, ...extensions]);
    // what the schema checks, what REST-only routes check, every content type's actions (Shadow CRUD may have switched some off), the project's custom actions
    const contentActions = [...models.contentTypes.values()].flatMap((contentType) => CONTENT_ACTIONS.map((action) => permissionFor(contentType, action)));
    const permissions = new Set([...requiredScopes(schema), ...built.flatMap((module) => module.permissions ?? []), ...contentActions, ...(projectRoutes?.permissions ?? [])]);
    // before any module starts: a role or token granting a misspelled permission is not stored
    checkPermissions(config, permissions);
    for (const module of built) {
      await module.start?.({ permissions });
      started.push(module);
    }
    const accounts = built.find((module) => module.accounts)?.accounts?.();
    if (!accounts) throw new Error('no module keeps users and roles');
    const authenticator = createAuthenticator(services.credentials, accounts);
    const extensionPlugins = extensions.flatMap(({ plugins }) => (typeof plugins === 'function' ? plugins({ models, config }) : (plugins ?? [])));
    const graphql = createGraphqlServer(schema, services, authenticator, { extensionPlugins, metrics, responseCache });
    const rest = createRestCalls({ services, schema, graphql, authenticator });
    const routes = built.flatMap((module) => module.routes?.({ services, schema, graphql, authenticator, accounts, extensions, rest, projectRoutes }) ?? []);
    return { services, schema, sdl, graphql, routes, metrics, events, stop };
  } catch (error) {
    // A start that fails half-way must not leave sockets or timers of the modules that did start.
    await stop();
    throw error;
  }
};
