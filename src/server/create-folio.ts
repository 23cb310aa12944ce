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

/** Wires one Folio instance from explicit dependencies: models, configuration, store, extensions. */

export interface FolioOptions {
  models: Models;
  config: FolioConfig;
  store: Store;
  extensions?: Extension[];
}

export interface Folio {
  services: Services;
  schema: GraphQLSchema;
  sdl: string;
  graphql: GraphqlServer;
}

export const createFolio = async ({ models, config, store, extensions = [] }: FolioOptions): Promise<Folio> => {
  await ensureIndexes(models, store);
  const documents = createDocumentService({ models, store, i18n: config.i18n });
  const services: Services = { models, config, store, documents };
  const { schema, sdl } = buildSchema(models, config, extensions);
  const graphql = createGraphqlServer(schema, services, createAuthenticator(config));
  return { services, schema, sdl, graphql };
};
