import { collectSubFields, type VariableValues } from '@graphql-tools/utils';
import { getNamedType, isObjectType, type FieldNode, type GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';

/**
 * The fields `nodes` select on `type`, by response key, through fragments, after `@skip`/`@include`; none when
 * they cannot be collected (the executor reports why). `variables`: one object per look-ahead, so that
 * collectSubFields' memo holds across its calls.
 */
export const subFieldsOf = (info: GraphQLResolveInfo, variables: VariableValues, type: GraphQLObjectType, nodes: readonly FieldNode[]): Map<string, FieldNode[]> => {
  try {
    return collectSubFields(info.schema, info.fragments, variables, type, nodes as FieldNode[]).fields;
  } catch {
    return new Map();
  }
};

/** Whether the field being resolved selects `fieldName` on its result, under any alias. */
export const selectsSubField = (info: GraphQLResolveInfo, fieldName: string): boolean => {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return false;
  return [...subFieldsOf(info, { coerced: info.variableValues, sources: {} }, type, info.fieldNodes).values()].some((nodes) => nodes[0].name.value === fieldName);
};
