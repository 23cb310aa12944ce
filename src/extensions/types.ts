import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLResolveInfo } from 'graphql';
import type { Models } from '../models/types';
import type { FolioConfig } from '../config/types';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import type { ShadowCrudSettings } from '../sdl/shadow-crud';
import type { Policy, PolicyReference } from '../directives/policy';

/** What a hand-written extension (schema/extensions/*.js) may contribute, in Strapi's shape. */

export type Middleware = (
  next: (parent: unknown, args: Record<string, unknown>, context: unknown, info: GraphQLResolveInfo) => unknown,
  parent: unknown,
  args: Record<string, unknown>,
  context: unknown,
  info: GraphQLResolveInfo,
) => unknown;

export interface ResolverConfig {
  auth?: false | { scope: string[] };
  policies?: Array<string | PolicyReference | Policy>;
  middlewares?: Array<string | { name: string; options?: unknown } | Middleware>;
}

export interface Extension {
  typeDefs?: string;
  resolvers?: IResolvers;
  resolversConfig?: Record<string, ResolverConfig>;
  shadowCRUD?: ShadowCrudSettings;
  policies?: Record<string, Policy>;
  middlewares?: Record<string, (options: unknown) => Middleware>;
  /**
   * envelop or yoga plugins, or a function of the models and config returning them: they run after
   * Folio's own limits, on /graphql and on every REST request (`context.surface` tells which)
   */
  plugins?: ExtensionPlugins;
}

export type ExtensionPlugins = Array<YogaPlugin<Record<string, unknown>>> | ((tools: { models: Models; config: FolioConfig }) => Array<YogaPlugin<Record<string, unknown>>>);

export type ExtensionFactory = (tools: { models: Models }) => Extension;
