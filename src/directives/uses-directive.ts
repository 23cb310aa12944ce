import { getDirective } from '@graphql-tools/utils';
import { isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';

/**
 * Whether any type, field, argument or input field of `schema` carries the directive `name`. A directive pass
 * rebuilds the whole schema (`mapSchema`, tens of milliseconds at start for the example models), so a pass over
 * a directive nobody wrote is skipped.
 */
export function usesDirective(schema: GraphQLSchema, name: string): boolean {
  const marked = (node: Parameters<typeof getDirective>[1]): boolean => (getDirective(schema, node, name)?.length ?? 0) > 0;
  return Object.values(schema.getTypeMap()).some((type) => {
    if (type.name.startsWith('__')) return false;
    if (marked(type)) return true;
    if (isObjectType(type) || isInterfaceType(type)) return Object.values(type.getFields()).some((field) => marked(field) || field.args.some(marked));
    if (isInputObjectType(type)) return Object.values(type.getFields()).some(marked);
    return false;
  });
}
