import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { applyFieldAuth, guardWithPolicies, resolvePolicy, type FieldAuth, type Policy, type PolicyRegistry } from '../directives/index';
import type { Extension, Middleware, ResolverConfig } from '../extensions/types';

/**
 * Strapi's `resolversConfig` (`Query.<name>` → auth, policies, middlewares), applied to the
 * executable schema, last: auth lands in field extensions with `@auth`'s (checked before execution);
 * policies and middlewares wrap only the resolvers they are configured on.
 */

type Resolver = GraphQLFieldResolver<unknown, unknown>;
type MiddlewareRegistry = ReadonlyMap<string, (options: unknown) => Middleware>;

const toPolicy = (registry: PolicyRegistry, entry: NonNullable<ResolverConfig['policies']>[number], where: string): Policy =>
  typeof entry === 'function' ? entry : resolvePolicy(registry, typeof entry === 'string' ? { name: entry } : entry, where);

const toMiddleware = (registry: MiddlewareRegistry, entry: NonNullable<ResolverConfig['middlewares']>[number], where: string): Middleware => {
  if (typeof entry === 'function') return entry;
  const { name, options } = typeof entry === 'string' ? { name: entry, options: undefined } : entry;
  const factory = registry.get(name);
  if (!factory) throw new Error(`${where}: unknown middleware "${name}"`);
  return factory(options);
};

const withMiddlewares = (resolve: Resolver, middlewares: Middleware[]): Resolver =>
  middlewares.reduceRight<Resolver>(
    (next, middleware) => (parent, args, context, info) => middleware(next as never, parent, args, context, info),
    resolve,
  );

const CONNECTION = '_connection';

/**
 * A list and its connection are one read (`tags` and `tags_connection`: same arguments, same
 * permission), and REST lists run as the connection: what is configured on one guards the other
 * too, unless the other has its own entry.
 */
const withListSiblings = (schema: GraphQLSchema, config: Map<string, ResolverConfig>): Map<string, ResolverConfig> => {
  const queries = schema.getQueryType()?.getFields() ?? {};
  const expanded = new Map(config);
  for (const [key, value] of config) {
    const [typeName, fieldName] = key.split('.');
    if (typeName !== 'Query') continue;
    const sibling = fieldName.endsWith(CONNECTION) ? fieldName.slice(0, -CONNECTION.length) : `${fieldName}${CONNECTION}`;
    if (sibling in queries && !config.has(`Query.${sibling}`)) expanded.set(`Query.${sibling}`, value);
  }
  return expanded;
};

export const applyResolversConfig = (schema: GraphQLSchema, extensions: Extension[], policies: PolicyRegistry): GraphQLSchema => {
  const configured = new Map<string, ResolverConfig>();
  for (const extension of extensions) {
    for (const [key, value] of Object.entries(extension.resolversConfig ?? {})) configured.set(key, { ...configured.get(key), ...value });
  }
  for (const key of configured.keys()) {
    const [typeName, fieldName] = key.split('.');
    const type = schema.getType(typeName);
    if (!type || !('getFields' in type) || !(fieldName in type.getFields())) throw new Error(`resolversConfig: ${key} is not a field of the schema`);
  }
  const config = withListSiblings(schema, configured);
  const middlewares: MiddlewareRegistry = new Map(extensions.flatMap((extension) => Object.entries(extension.middlewares ?? {})));
  const auth = new Map<string, FieldAuth>([...config].flatMap(([key, value]) => (value.auth === undefined ? [] : [[key, value.auth]])));
  const wraps = (entry: ResolverConfig | undefined): entry is ResolverConfig => Boolean(entry?.policies?.length || entry?.middlewares?.length);
  // a pass rebuilds the whole schema: none when nothing is wrapped
  const wrapped = [...config.values()].some(wraps)
    ? mapSchema(schema, {
        [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
          const entry = config.get(`${typeName}.${fieldName}`);
          if (!wraps(entry)) return field;
          const where = `resolversConfig ${typeName}.${fieldName}`;
          const guards = (entry.policies ?? []).map((policy) => toPolicy(policies, policy, where));
          const chain = (entry.middlewares ?? []).map((middleware) => toMiddleware(middlewares, middleware, where));
          return { ...field, resolve: guardWithPolicies(withMiddlewares(field.resolve ?? defaultFieldResolver, chain), guards) };
        },
      })
    : schema;
  return applyFieldAuth(wrapped, auth);
};
