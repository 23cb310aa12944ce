import { getDirective, MapperKind, mapSchema, pruneSchema } from '@graphql-tools/utils';
import { isObjectType, isInputObjectType, isInterfaceType, type GraphQLSchema } from 'graphql';
import { usesDirective } from './uses-directive';

/**
 * `@disabled` (directives/disabled.graphql): removes what it marks (a type, a field, an input
 * field, an argument) from the executable schema, together with every field that would point at a
 * removed type.
 */

const isDisabled = (schema: GraphQLSchema, node: Parameters<typeof getDirective>[1]): boolean =>
  (getDirective(schema, node, 'disabled')?.length ?? 0) > 0;

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

const emptyTypeNames = (schema: GraphQLSchema): Set<string> =>
  new Set(
    Object.values(schema.getTypeMap())
      .filter((type) => !type.name.startsWith('__'))
      .filter((type) => (isObjectType(type) || isInputObjectType(type) || isInterfaceType(type)) && Object.keys(type.getFields()).length === 0)
      .map((type) => type.name),
  );

const removeDisabled = (schema: GraphQLSchema): GraphQLSchema =>
  mapSchema(schema, {
    [MapperKind.TYPE]: (type) => (!ROOT_TYPES.has(type.name) && isDisabled(schema, type) ? null : type),
    [MapperKind.COMPOSITE_FIELD]: (field) => {
      if (isDisabled(schema, field)) return null;
      const args = Object.fromEntries(Object.entries(field.args ?? {}).filter(([, arg]) => !isDisabled(schema, arg)));
      return { ...field, args };
    },
    [MapperKind.INPUT_OBJECT_FIELD]: (field) => (isDisabled(schema, field) ? null : field),
  });

export const disabledDirectiveTransformer = (schema: GraphQLSchema): GraphQLSchema => {
  let current = usesDirective(schema, 'disabled') ? removeDisabled(schema) : schema;
  // Removing fields can leave types empty, and removing those can empty others: repeat until stable.
  for (let empty = emptyTypeNames(current); empty.size > 0; empty = emptyTypeNames(current)) {
    const removed = empty;
    current = mapSchema(current, {
      [MapperKind.TYPE]: (type) => (removed.has(type.name) ? null : type),
    });
  }
  return pruneSchema(current);
};
