import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { Extension } from '../extensions/types';
import type { ContentType, Models } from '../models/types';
import { withPluginTypes } from '../models/extend-plugin-types';
import type { Services } from '../context';
import type { GraphqlServer } from '../graphql/create-graphql-server';
import type { AccountDirectory, Authenticator } from '../auth/authenticate';
import type { RestCalls } from '../rest-compiler/rest-calls';
import type { ProjectRouteTable } from '../project/route-table';

/**
 * A built-in feature (REST, users & permissions, uploads…) plugs into Folio as a module: SDL and
 * resolvers merged into the one executable schema, work to do at start, and HTTP routes that see
 * the finished schema and GraphQL pipeline.
 */

/** Answers the request and returns true, or returns false to let the next route try. */
export type HttpRoute = (request: IncomingMessage, response: ServerResponse, url: URL) => boolean | Promise<boolean>;

export interface Runtime {
  services: Services;
  schema: GraphQLSchema;
  graphql: GraphqlServer;
  /** the one authenticator every surface asks, made once every module has started */
  authenticator: Authenticator;
  /** the accounts and roles the authenticator asks */
  accounts: AccountDirectory;
  /** the hand-written extensions (schema/extensions), without the modules' own */
  extensions: Extension[];
  /** the one REST front: every REST route that reads documents compiles its request through it */
  rest: RestCalls;
  /** the routes (with their controllers, policies and middlewares) of the project's `src/api/<api>/routes`, when it has any */
  projectRoutes?: ProjectRouteTable;
}

export interface FolioModule {
  name: string;
  /** permissions its HTTP routes check that no schema field requires (REST-only actions), so roles may grant them */
  permissions?: readonly string[];
  extension?: Extension;
  /** `permissions`: every permission something checks (the schema's scopes, REST-only actions, project actions) */
  start?(known: { permissions: ReadonlySet<string> }): Promise<void>;
  /** the accounts a credential can name, from the module that keeps users and roles: available once started */
  accounts?(): AccountDirectory;
  /** releases what `start` opened (sockets, timers), before the store closes */
  stop?(): Promise<void>;
  routes?(runtime: Runtime): HttpRoute[];
}

export interface FolioModuleFactory {
  (services: Services): FolioModule;
  /** content-types the module keeps its data in (users, roles): part of the models before anything reads them */
  contentTypes?: ContentType[];
}

export const withModuleContentTypes = (models: Models, modules: FolioModuleFactory[]): Models =>
  withPluginTypes(models, modules.flatMap((factory) => factory.contentTypes ?? []));
