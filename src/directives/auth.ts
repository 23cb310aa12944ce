import { getDirective } from '@graphql-tools/utils';
import { isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';

/**
 * `@auth(scope: [...])` (directives/auth.graphql): the permissions a field needs. `applyFieldAuth`
 * copies the scope into the field's extensions, where the authorization validation rule reads it
 * before execution.
 */

/** `false`: public (resolversConfig `auth: false`); a scope list: every permission is needed. */
export type FieldAuth = false | { scope: string[] };

export interface AuthExtensions {
  auth?: FieldAuth;
}

export const authOf = (field: { extensions?: unknown }): FieldAuth | undefined =>
  (field.extensions as AuthExtensions | undefined)?.auth;

/**
 * Copies each field's `@auth` scope, or the `Type.field` entry of `overrides` (resolversConfig) that replaces it,
 * into the field's extensions. In place: `schema` was built by the caller and nothing holds it yet, where a
 * `mapSchema` pass rebuilt every type of it (35–60 ms of each start on the example models), as graphql-tools'
 * `addResolversToSchema` sets resolvers in place with `updateResolversInPlace`.
 */
export const applyFieldAuth = (schema: GraphQLSchema, overrides: ReadonlyMap<string, FieldAuth>): GraphQLSchema => {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const directive = getDirective(schema, field, 'auth')?.[0] as { scope?: string[] } | undefined;
      const auth = overrides.get(`${type.name}.${field.name}`) ?? (directive && { scope: directive.scope ?? [] });
      if (auth !== undefined) (field as { extensions: GraphQLField<unknown, unknown>['extensions'] }).extensions = { ...field.extensions, auth };
    }
  }
  return schema;
};

/** Every permission some field of the schema requires. */
export const requiredScopes = (schema: GraphQLSchema): Set<string> => {
  const scopes = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const auth = authOf(field);
      if (auth) for (const scope of auth.scope) scopes.add(scope);
    }
  }
  return scopes;
};
