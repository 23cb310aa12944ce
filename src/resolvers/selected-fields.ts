import { collectSubFields } from '@graphql-tools/utils';
import { getNamedType, isObjectType, type FieldNode, type GraphQLResolveInfo } from 'graphql';

/**
 * Whether the field being resolved selects `fieldName` on its result, under any alias, through fragments,
 * after `@skip`/`@include`. False when the selection cannot be collected: the executor reports why.
 */
export const selectsSubField = (info: GraphQLResolveInfo, fieldName: string): boolean => {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return false;
  try {
    const { fields } = collectSubFields(info.schema, info.fragments, { coerced: info.variableValues, sources: {} }, type, info.fieldNodes as FieldNode[]);
    return [...fields.values()].some((nodes) => nodes[0].name.value === fieldName);
  } catch {
    return false;
  }
};
