import type { Plugin } from '@envelop/core';
import { collectFields } from '@graphql-tools/utils';
import {
  getOperationAST,
  isNonNullType,
  Kind,
  validate,
  type ASTVisitor,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationContext,
} from 'graphql';
import { authOf } from '../../../directives';
import { forbiddenError } from '../../errors/graphql-errors';
import type { Principal } from '../../auth/principal';

/**
 * Checks every selected field's `@auth` scope against the principal before execution, in the
 * style of envelop's generic-auth: one validation pass, no per-resolver wrapping. A forbidden
 * operation answers HTTP 200 with a FORBIDDEN error, as Strapi does (Apollo Client keeps it).
 *
 * Only the operation that runs is checked, with the fragments it reaches (directly, in inline
 * fragments, through other fragments). A root field that declares no auth at all (a hand-written
 * one without `resolversConfig`) is for authenticated callers only, as in Strapi: forgetting to
 * configure a resolver must not publish it.
 */

export const authorizationRule =
  (principal: Principal, operationName?: string | null) =>
  (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema();
    const rootTypes = new Set<unknown>([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean));
    const operation = getOperationAST(context.getDocument(), operationName);
    const reached = new Set(operation ? context.getRecursivelyReferencedFragments(operation).map((fragment) => fragment.name.value) : []);
    const forbid = () => context.reportError(forbiddenError('Forbidden access'));
    return {
      // Without a single operation to run, execution refuses the document anyway: check all of it.
      OperationDefinition: (node) => (operation && node !== operation ? false : undefined),
      FragmentDefinition: (node) => (operation && !reached.has(node.name.value) ? false : undefined),
      Field() {
        const field = context.getFieldDef();
        if (!field || field.name.startsWith('__')) return;
        const auth = authOf(field);
        if (auth === false) return;
        if (auth === undefined) {
          if (principal.kind === 'public' && rootTypes.has(context.getParentType())) forbid();
          return;
        }
        if (auth.scope.some((permission) => !principal.can(permission))) forbid();
      },
    };
  };

export const findForbidden = (schema: GraphQLSchema, document: DocumentNode, principal: Principal, operationName?: string | null) =>
  validate(schema, document, [authorizationRule(principal, operationName)]);

/** Principals that hold the same permissions share a verdict (users of one role, tokens of one permission set). */
const verdictKey = (principal: Principal, operationName?: string | null): string => `${principal.grants}|${operationName ?? ''}`;

type Variables = Record<string, unknown>;

/**
 * The answer to a refused operation, shaped as Strapi's: one FORBIDDEN error per root field that
 * selects something forbidden, with that field's path, and every root field null; `data` itself is
 * null when a root field cannot be (a non-null list), as graphql-js would propagate it. The whole
 * operation is refused, so in an operation that mixes allowed and forbidden root fields the allowed
 * ones are null too.
 */
const refusal = (schema: GraphQLSchema, document: DocumentNode, principal: Principal, operationName: string | null | undefined, variables: Variables): ExecutionResult => {
  const operation = getOperationAST(document, operationName);
  const rootType = operation && schema.getRootType(operation.operation);
  if (!operation || !rootType) return { data: null, errors: findForbidden(schema, document, principal, operationName).slice(0, 1) };
  const { fields } = collectFields(schema, Object.fromEntries(document.definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition]] : []))), { coerced: variables, sources: {} }, rootType, operation.selectionSet);
  const data: Record<string, null> = {};
  const errors: GraphQLError[] = [];
  let nullable = true;
  for (const [key, nodes] of fields) {
    data[key] = null;
    const type = rootType.getFields()[nodes[0].name.value]?.type;
    if (type && isNonNullType(type)) nullable = false;
    // the root field alone, with the document's fragments, tells whether it is one of the forbidden
    const alone: DocumentNode = { ...document, definitions: document.definitions.map((definition) => (definition === operation ? { ...operation, selectionSet: { kind: Kind.SELECTION_SET, selections: nodes as FieldNode[] } } : definition)) };
    const [forbidden] = findForbidden(schema, alone, principal, operationName);
    if (forbidden) errors.push(forbiddenError(forbidden.message, {}, [key]));
  }
  return { data: nullable ? data : null, errors: errors.length > 0 ? errors : findForbidden(schema, document, principal, operationName).slice(0, 1) };
};

export const useAuthorization = (principalOf: (context: unknown) => Principal): Plugin => {
  // yoga hands the same DocumentNode for the same query text: a verdict is computed once per document and permission set
  const verdicts = new WeakMap<DocumentNode, Map<string, boolean>>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const principal = principalOf(args.contextValue);
      let byKey = verdicts.get(args.document);
      if (!byKey) verdicts.set(args.document, (byKey = new Map()));
      const key = verdictKey(principal, args.operationName);
      let allowed = byKey.get(key);
      if (allowed === undefined) byKey.set(key, (allowed = findForbidden(args.schema, args.document, principal, args.operationName).length === 0));
      if (!allowed) setResultAndStopExecution(refusal(args.schema, args.document, principal, args.operationName, (args.variableValues ?? {}) as Variables));
    },
  };
};
