import type { Plugin } from '@envelop/core';
import {
  getNamedType,
  getNullableType,
  getOperationAST,
  isListType,
  Kind,
  TypeInfo,
  valueFromAST,
  valueFromASTUntyped,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';
import { badUserInput } from '../../errors/graphql-errors';
import { sortKeyFields } from '../../query/parse-sort';

/**
 * `maxSortKeys`: every `sort: [String]` argument an operation gives (root lists, connections, relation
 * lists, components; REST's `sort` and `populate[x][sort]` compile onto them) names each key once and
 * at most `maxKeys` keys (`false`: no count). The store reads every key of every row it sorts, strings
 * copied per key: 1,000 × "title:desc" over 100 KB titles took up to 2.4 s and 0.9 GB before failing.
 * Checked where the variables are known but before anything runs, so a nested list's sort is refused
 * before its parents are read, and both surfaces answer a 400; whether each key is sortable stays the
 * resolvers' to say (query/parse-sort).
 */

interface SortArgument {
  value: ValueNode;
  type: GraphQLInputType;
}

/** What an operation's `sort` values are read from: its arguments, and its variables' defaults (a default of 1,000 keys is as costly as sent ones). */
interface SortSources {
  sorts: SortArgument[];
  defaults: Record<string, unknown>;
}

const isSortList = (type: GraphQLInputType): boolean => {
  const list = getNullableType(type);
  return isListType(list) && getNamedType(list).name === 'String';
};

/** The `sort` arguments of `operation` and of the fragments it spreads, found once per document and operation. */
const sortSourcesOf = (schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): SortSources => {
  const fragments = new Map(
    document.definitions.filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION).map((fragment) => [fragment.name.value, fragment]),
  );
  const found: SortArgument[] = [];
  const pending: Array<OperationDefinitionNode | FragmentDefinitionNode> = [operation];
  const spread = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  const visitor = visitWithTypeInfo(typeInfo, {
    Argument(node) {
      const argument = typeInfo.getArgument();
      // a directive's argument named `sort` is not a list's order
      if (node.name.value === 'sort' && argument && typeInfo.getDirective() === null && isSortList(argument.type)) found.push({ value: node.value, type: argument.type });
    },
    FragmentSpread(node) {
      const fragment = fragments.get(node.name.value);
      if (fragment && !spread.has(fragment.name.value)) {
        spread.add(fragment.name.value);
        pending.push(fragment);
      }
    },
  });
  for (let next = pending.pop(); next; next = pending.pop()) visit(next, visitor);
  const defaults = Object.fromEntries(
    (operation.variableDefinitions ?? []).flatMap((definition) => (definition.defaultValue ? [[definition.variable.name.value, valueFromASTUntyped(definition.defaultValue)]] : [])),
  );
  return { sorts: found, defaults };
};

const tooManyKeys = (keys: number, maxKeys: number) =>
  badUserInput(`sort names ${keys} keys: at most ${maxKeys} may be given (graphql.config.maxSortKeys)`, { param: 'sort', keys, maxSortKeys: maxKeys });

const keyGivenTwice = (key: string) => badUserInput(`sort names ${key} twice: each key may be given once`, { key, path: null, source: 'query', param: 'sort' });

/** What is wrong with one `sort` value, if anything: too many keys first, so 1,000 copies of one key name the limit. */
const sortRefusal = (sort: unknown, maxKeys: number | false) => {
  const fields = sortKeyFields(sort);
  if (maxKeys !== false && fields.length > maxKeys) return tooManyKeys(fields.length, maxKeys);
  const seen = new Set<string>();
  for (const field of fields) {
    if (seen.has(field)) return keyGivenTwice(field);
    seen.add(field);
  }
  return undefined;
};

export const useSortKeyLimit = (maxKeys: number | false): Plugin => {
  // yoga (and REST's compiled operations) hand the same DocumentNode for the same text
  const known = new WeakMap<DocumentNode, Map<string, SortSources>>();
  const sortSources = (schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): SortSources => {
    let byOperation = known.get(document);
    if (!byOperation) known.set(document, (byOperation = new Map()));
    const name = operation.name?.value ?? '';
    let found = byOperation.get(name);
    if (!found) byOperation.set(name, (found = sortSourcesOf(schema, document, operation)));
    return found;
  };
  const guard = ({ args, setResultAndStopExecution }: { args: ExecutionArgs; setResultAndStopExecution(result: ExecutionResult): void }) => {
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return;
    const { sorts, defaults } = sortSources(args.schema, args.document, operation);
    if (sorts.length === 0) return;
    // the variables as sent: graphql-js coerces them after this, refusing what is not text
    const variables = { ...defaults, ...(args.variableValues as Record<string, unknown> | null | undefined) };
    for (const { value, type } of sorts) {
      const refusal = sortRefusal(valueFromAST(value, type, variables), maxKeys);
      if (refusal) {
        // no `data`: a 400 on /graphql (use-client-errors), REST's envelope from the error's Strapi name
        setResultAndStopExecution({ errors: [refusal] });
        return;
      }
    }
  };
  return { onExecute: guard, onSubscribe: guard };
};
