import type { GraphQLSchema } from 'graphql';
import type { FolioConfig } from '../config/types';
import type { Models } from '../models/types';
import type { Store } from '../storage/types';
import type { Extension } from '../extensions/types';
import type { Services } from '../resolvers/context';
import { createDocumentService } from '../documents/document-service';
import { ensureIndexes } from '../documents/ensure-indexes';
import { buildSchema } from '../schema/build-schema';
import { createAuthenticator } from '../auth/authenticate';
import { createGraphqlServer, type GraphqlServer } from '../graphql/create-graphql-server';
import type { FolioModuleFactory, HttpRoute } from './folio-module';
import { BUILT_IN_MODULES } from './built-in-modules';

/** Wires one Folio instance from explicit dependencies: models, configuration, store, extensions. */

export interface FolioOptions {
  models: Models;
  config: FolioConfig;
  store: Store;
  /** absolute path; modules keep their files under it (uploads) */
  dataDir: string;
  extensions?: Extension[];
  modules?: FolioModuleFactory[];
}

export interface Folio {
  services: Services;
  schema: GraphQLSchema;
  sdl: string;
  graphql: GraphqlServer;
  routes: HttpRoute[];
}

export const createFolio = async ({ models, config, store, dataDir, extensions = [], modules = BUILT_IN_MODULES }: FolioOptions): Promise<Folio> => {
  await ensureIndexes(models, store);
  const documents = createDocumentService({ models, store, i18n: config.i18n });
  const services: Services = { models, config, store, documents, dataDir };
  const built = modules.map((factory) => factory(services));
  for (const module of built) await module.start?.();
  const moduleExtensions = built.flatMap((module) => (module.extension ? [module.extension] : []));
  const { schema, sdl } = buildSchema(models, config, [...moduleExtensions, ...extensions]);
  const graphql = createGraphqlServer(schema, services, await createAuthenticator(services));
  const routes = built.flatMap((module) => module.routes?.({ services, schema, graphql }) ?? []);
  return { services, schema, sdl, graphql, routes };
};
