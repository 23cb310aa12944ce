import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { forbiddenError } from '../errors/graphql-errors';
import { usesDirective } from './uses-directive';
import type { Principal } from '../auth/principal';

/**
 * `@policy(name:, config:)` (directives/policy.graphql): runs a registered policy before the
 * field's resolver; a falsy result blocks the field with FORBIDDEN. The same policies serve
 * resolversConfig.
 */

/** What Strapi hands a GraphQL policy: resolver arguments, the HTTP request, and who is asking. */
export interface PolicyContext {
  parent: unknown;
  args: Record<string, unknown>;
  context: unknown;
  info: GraphQLResolveInfo;
  config: unknown;
  http: { request?: Request };
  state: { principal?: Principal; user?: Principal['user'] };
}

/** `config` is also the second argument, where Strapi-written policies `(policyContext, config)` expect it. */
export type Policy = (policyContext: PolicyContext, config?: unknown) => unknown;

export interface PolicyReference {
  name: string;
  config?: unknown;
}

export type PolicyRegistry = ReadonlyMap<string, Policy>;

/** The part of the request context a policy is handed (the context itself is built above the schema). */
interface PolicyRequestState {
  request?: Request;
  principal?: Principal;
}

export const resolvePolicy = (registry: PolicyRegistry, reference: PolicyReference, where: string): Policy => {
  const policy = registry.get(reference.name);
  if (!policy) throw new Error(`${where}: unknown policy "${reference.name}" (registered: ${[...registry.keys()].join(', ') || 'none'})`);
  return (policyContext) => policy({ ...policyContext, config: reference.config }, reference.config);
};

export const guardWithPolicies = (
  resolve: GraphQLFieldResolver<unknown, unknown>,
  policies: Policy[],
): GraphQLFieldResolver<unknown, unknown> =>
  policies.length === 0
    ? resolve
    : async (parent, args, context, info) => {
        const { request, principal } = (context ?? {}) as PolicyRequestState;
        const policyContext: PolicyContext = { parent, args, context, info, config: undefined, http: { request }, state: { principal, user: principal?.user } };
        for (const policy of policies) {
          if (!(await policy(policyContext))) throw forbiddenError('Policy Failed');
        }
        return resolve(parent, args, context, info);
      };

export const policyDirectiveTransformer =
  (registry: PolicyRegistry) =>
  (schema: GraphQLSchema): GraphQLSchema => {
    if (!usesDirective(schema, 'policy')) return schema;
    return mapSchema(schema, {
      [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
        const references = (getDirective(schema, field, 'policy') ?? []) as PolicyReference[];
        if (references.length === 0) return field;
        const policies = references.map((reference) => resolvePolicy(registry, reference, `@policy on ${typeName}.${fieldName}`));
        return { ...field, resolve: guardWithPolicies(field.resolve ?? defaultFieldResolver, policies) };
      },
    });
  };
