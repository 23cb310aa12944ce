import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import { isObjectType, type GraphQLFieldConfig, type GraphQLSchema } from 'graphql';

/**
 * `@auth(scope: [...])` (directives/auth.graphql): the permissions a field needs. The transformer
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

const withAuth = <T extends GraphQLFieldConfig<unknown, unknown>>(field: T, auth: FieldAuth): T => ({
  ...field,
  extensions: { ...field.extensions, auth },
});

export const authDirectiveTransformer = (schema: GraphQLSchema): GraphQLSchema =>
  mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field) => {
      const directive = getDirective(schema, field, 'auth')?.[0] as { scope?: string[] } | undefined;
      return directive ? withAuth(field, { scope: directive.scope ?? [] }) : field;
    },
  });

/** resolversConfig overrides: keyed `Query.<name>` / `Mutation.<name>` (or any `<Type>.<field>`). */
export const applyAuthOverrides = (schema: GraphQLSchema, overrides: Map<string, FieldAuth>): GraphQLSchema =>
  overrides.size === 0
    ? schema
    : mapSchema(schema, {
        [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
          const auth = overrides.get(`${typeName}.${fieldName}`);
          return auth === undefined ? field : withAuth(field, auth);
        },
      });

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
