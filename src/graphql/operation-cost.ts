import {
  Kind,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  isObjectType,
  isInterfaceType,
  isAbstractType,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { filterCost } from './filter-cost';

/**
 * The cost of an operation: about the number of values its answer can hold. Each field costs 1;
 * a list multiplies the cost of its selection by the items it may hold: the page its `pagination`
 * asks for (`limit` or `pageSize`, literal or variable; `limit: -1` is all, which is `maxLimit`),
 * else `defaultLimit`, never more than `maxLimit`. A connection's page applies to its `nodes`.
 * So `articles(pagination: { limit: 100 }) { tags { articles(pagination: { limit: 100 }) { … } } }`
 * costs what it can return, 100 × 10 × 100 × …, not the dozen fields it names. A field's
 * `filters` add what they cost to be planned and tested (filter-cost.ts).
 *
 * An item of a union or interface (a dynamic-zone entry) is of one type: it costs what the
 * fragments applying to its type cost, the dearest type counting, not all fragments together.
 *
 * A named fragment is costed once per page it is spread under and reused at every spread, so the
 * work is linear in the document: walked per spread, 25 fragments each spreading the one before
 * twice were 2^25 paths, 41 s of the main thread for a 1.5 KB document.
 */

export interface CostLimits {
  defaultLimit: number;
  maxLimit: number;
}

const pageOf = (node: FieldNode, variables: Record<string, unknown>, limits: CostLimits): number => {
  const argument = node.arguments?.find((candidate) => candidate.name.value === 'pagination');
  const value = argument ? valueFromASTUntyped(argument.value, variables) : undefined;
  const asked = typeof value === 'object' && value !== null ? ((value as Record<string, unknown>).limit ?? (value as Record<string, unknown>).pageSize) : undefined;
  if (typeof asked !== 'number') return limits.defaultLimit;
  if (asked === -1) return limits.maxLimit;
  return Math.min(Math.max(asked, 1), limits.maxLimit);
};

/** What the field's `filters` argument costs (filter-cost.ts); 0 without one. */
export const filtersCostOf = (node: FieldNode, variables: Record<string, unknown>): number => {
  const argument = node.arguments?.find((candidate) => candidate.name.value === 'filters');
  return argument ? filterCost(valueFromASTUntyped(argument.value, variables)) : 0;
};

const hasPagination = (field: GraphQLField<unknown, unknown>) => field.args.some((argument) => argument.name === 'pagination');

export const operationCost = (
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  limits: CostLimits,
): number => {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);

  const fragmentCosts = new Map<string, number>();
  const fragmentCost = (fragment: FragmentDefinitionNode, type: GraphQLCompositeType, page: number | undefined): number => {
    const key = `${fragment.name.value}|${page ?? ''}`;
    let cost = fragmentCosts.get(key);
    if (cost === undefined) {
      // validation refused cycles before execution: the mark only keeps a broken document finite
      fragmentCosts.set(key, 0);
      cost = costOf(fragment.selectionSet, type, page);
      fragmentCosts.set(key, cost);
    }
    return cost;
  };

  /** `page`: the items a list directly below may hold, set by a connection's `pagination` */
  const costOf = (selectionSet: SelectionSetNode, parent: GraphQLCompositeType, page: number | undefined): number => {
    let total = 0;
    /** the fragments' costs, with the type each applies to (a type condition, or the parent) */
    const applied: Array<{ type: GraphQLCompositeType; cost: number }> = [];
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        // a relation's filter runs for each item of the list above: it is multiplied with the rest of the selection
        total += 1 + filtersCostOf(selection, variables);
        const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
        const named = field && getNamedType(field.type);
        if (!field || !selection.selectionSet || !named || !isCompositeType(named)) continue;
        const own = hasPagination(field) ? pageOf(selection, variables, limits) : undefined;
        const isList = isListType(getNullableType(field.type));
        // a list is as long as its own page, or its connection's, or the default
        const items = isList ? (own ?? page ?? limits.defaultLimit) : 1;
        total += items * costOf(selection.selectionSet, named, isList ? undefined : own);
      } else {
        // validation has made sure fragments exist, fit, and do not cycle
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
        if (!fragment) continue;
        const type = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
        if (!type || !isCompositeType(type)) continue;
        applied.push({ type, cost: fragment.kind === Kind.FRAGMENT_DEFINITION ? fragmentCost(fragment, type, page) : costOf(fragment.selectionSet, type, page) });
      }
    }
    if (!isAbstractType(parent)) return applied.reduce((sum, fragment) => sum + fragment.cost, total);
    const applying = (member: GraphQLObjectType) =>
      applied.reduce((sum, fragment) => sum + (fragment.type === member || (isAbstractType(fragment.type) && schema.isSubType(fragment.type, member)) ? fragment.cost : 0), 0);
    return total + Math.max(0, ...schema.getPossibleTypes(parent).map(applying));
  };

  const root = operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  return root ? costOf(operation.selectionSet, root, undefined) : 0;
};
