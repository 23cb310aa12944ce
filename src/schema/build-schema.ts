import { makeExecutableSchema } from '@graphql-tools/schema';
import { mergeResolvers, mergeTypeDefs } from '@graphql-tools/merge';
import type { IResolvers } from '@graphql-tools/utils';
import { buildASTSchema, type GraphQLSchema } from 'graphql';
import type { Models } from '../models/types';
import type { FolioConfig } from '../config/types';
import { emitSdl } from '../sdl/emit-sdl';
import { createShadowCrud, type ShadowCrud } from '../sdl/shadow-crud';
import { policyDirectiveTransformer, resolversLeft, withoutDisabled, type PolicyRegistry } from '../directives/index';
import { aggregateResolvers } from '../resolvers/aggregate-resolvers';
import { contentTypeResolvers } from '../resolvers/content-type-resolvers';
import { subscriptionResolvers } from '../resolvers/subscription-resolvers';
import { componentResolvers } from '../resolvers/component-resolvers';
import { genericMorphResolvers } from '../resolvers/morph-loader';
import { scalarResolvers } from '../resolvers/scalars';
import { enumResolvers } from '../resolvers/enum-resolvers';
import type { Extension } from '../extensions/types';
import { applyResolversConfig } from './apply-resolvers-config';

/** Models → SDL → one executable schema, with hand-written extensions merged in and directives applied. */

export interface BuiltSchema {
  schema: GraphQLSchema;
  sdl: string;
  shadowCrud: ShadowCrud;
}

const shadowCrudOf = (config: FolioConfig, extensions: Extension[]): ShadowCrud =>
  createShadowCrud(config.graphql.shadowCRUD, Object.assign({}, ...extensions.map((extension) => extension.shadowCRUD ?? {})));

export const buildSchema = (models: Models, config: FolioConfig, extensions: Extension[], extraResolvers: IResolvers[] = []): BuiltSchema => {
  const shadowCrud = shadowCrudOf(config, extensions);
  const sdl = emitSdl(models, { shadowCrud });
  const resolvers = mergeResolvers([
    scalarResolvers(models),
    enumResolvers(models),
    componentResolvers(models),
    genericMorphResolvers(models),
    ...[...models.contentTypes.values()].map((contentType) => {
      // a type whose mutations are off has no mutation fields (emit-root-fields): nothing to resolve
      const { Mutation, ...others } = contentTypeResolvers(models, contentType);
      return shadowCrud.isMutationsEnabled(contentType.uid) ? { ...others, Mutation } : others;
    }),
    ...[...models.contentTypes.values()].filter((contentType) => contentType.kind === 'collectionType').map((contentType) => aggregateResolvers(models, shadowCrud, contentType)),
    ...[...models.contentTypes.values()].map(subscriptionResolvers),
    ...extraResolvers,
    ...extensions.flatMap((extension) => (extension.resolvers ? [extension.resolvers] : [])),
  ]);
  const typeDefs = [sdl, ...extensions.flatMap((extension) => (extension.typeDefs ? [extension.typeDefs] : []))];
  const policies: PolicyRegistry = new Map(extensions.flatMap((extension) => Object.entries(extension.policies ?? {})));
  // @disabled on the type definitions, so that the schema is built once; the resolvers are set on it in place
  // (the schema is this function's own), and the passes left rebuild it only when used
  const { document, removed } = withoutDisabled(mergeTypeDefs(typeDefs));
  const executable = makeExecutableSchema({ typeDefs: buildASTSchema(document), resolvers: resolversLeft(resolvers, removed), inheritResolversFromInterfaces: true, updateResolversInPlace: true });
  const transformers = [policyDirectiveTransformer(policies), (schema: GraphQLSchema) => applyResolversConfig(schema, extensions, policies)];
  return { schema: transformers.reduce((schema, transform) => transform(schema), executable), sdl, shadowCrud };
};
