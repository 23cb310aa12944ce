import type { Plugin } from '@envelop/core';
import {
  GraphQLError,
  getNamedType,
  isNonNullType,
  isTypeSubTypeOf,
  typeFromAST,
  VariablesInAllowedPositionRule,
  Kind,
  type GraphQLSchema,
  type GraphQLType,
  type ValidationRule,
  type ValueNode,
  type VariableDefinitionNode,
} from 'graphql';

/**
 * Strapi types a relation of a `<Type>Input` as `ID` or `[ID]`, and its clients declare their
 * variables so (`mutation($tags: [ID]) { createArticle(data: { tags: $tags }) … }`). Folio's
 * relation fields take those values and richer ones (`{ connect, disconnect, set }`) as one
 * scalar, `RelationInput`; graphql-js would refuse an `ID` variable there. This plugin puts, in
 * place of the standard rule, the same rule with one more allowance: `ID` variables, in any list or
 * non-null wrapping, where a `RelationInput` is expected.
 */

const RELATION_INPUT = 'RelationInput';

/** graphql-js's `allowedVariableUsage`: a nullable variable may stand where a non-null one is expected only with a default. */
const allowedUsage = (schema: GraphQLSchema, varType: GraphQLType, varDefault: ValueNode | undefined, locationType: GraphQLType, hasLocationDefault: boolean): boolean => {
  if (isNonNullType(locationType) && !isNonNullType(varType)) {
    const hasNonNullDefault = varDefault !== undefined && varDefault.kind !== Kind.NULL;
    if (!hasNonNullDefault && !hasLocationDefault) return false;
    return isTypeSubTypeOf(schema, varType, locationType.ofType);
  }
  return isTypeSubTypeOf(schema, varType, locationType);
};

const relationVariablesRule: ValidationRule = (context) => {
  let definitions = new Map<string, VariableDefinitionNode>();
  return {
    OperationDefinition: {
      enter() {
        definitions = new Map();
      },
      leave(operation) {
        const schema = context.getSchema();
        for (const { node, type, defaultValue } of context.getRecursiveVariableUsages(operation)) {
          const definition = definitions.get(node.name.value);
          if (!definition || !type) continue;
          const varType = typeFromAST(schema, definition.type);
          if (!varType || allowedUsage(schema, varType, definition.defaultValue, type, defaultValue !== undefined)) continue;
          if (getNamedType(type).name === RELATION_INPUT && getNamedType(varType).name === 'ID') continue;
          context.reportError(
            new GraphQLError(`Variable "$${node.name.value}" of type "${String(varType)}" used in position expecting type "${String(type)}".`, { nodes: [definition, node] }),
          );
        }
      },
    },
    VariableDefinition(node) {
      definitions.set(node.variable.name.value, node);
    },
  };
};

export const useRelationVariables = (): Plugin => ({
  onValidate({ params }) {
    const index = params.rules?.indexOf(VariablesInAllowedPositionRule) ?? -1;
    if (params.rules && index >= 0) params.rules[index] = relationVariablesRule;
  },
});
