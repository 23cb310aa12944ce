import { isAsyncIterable, type Plugin } from '@envelop/core';
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
  type GraphQLField,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationContext,
} from 'graphql';
import { authOf } from '../../directives/index';
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

/** Whether `principal` may select `field` (a root field when `atRoot`), by its `@auth` scope. */
export const maySelectField = (field: GraphQLField<unknown, unknown>, principal: Principal, atRoot: boolean): boolean => {
  if (field.name.startsWith('__')) return true;
  const auth = authOf(field);
  if (auth === false) return true;
  if (auth === undefined) return !(principal.kind === 'public' && atRoot);
  return auth.scope.every((permission) => principal.can(permission));
};

const authorizationRule =
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
        if (field && !maySelectField(field, principal, rootTypes.has(context.getParentType()))) forbid();
      },
    };
  };

export const findForbidden = (schema: GraphQLSchema, document: DocumentNode, principal: Principal, operationName?: string | null) =>
  validate(schema, document, [authorizationRule(principal, operationName)]);

/** Principals that hold the same permissions share a verdict (users of one role, tokens of one permission set). */
const verdictKey = (principal: Principal, operationName?: string | null): string => `${principal.grants}|${operationName ?? ''}`;

type Variables = Record<string, unknown>;

/** The operation with the root selections of `keep` only (the document's fragments stay). */
const withRootFields = (document: DocumentNode, operation: OperationDefinitionNode, keep: readonly FieldNode[]): DocumentNode => ({
  ...document,
  definitions: document.definitions.map((definition) => (definition === operation ? { ...operation, selectionSet: { kind: Kind.SELECTION_SET, selections: keep } } : definition)),
});

interface Verdict {
  /** root response keys in selection order, with their field nodes */
  fields: Map<string, FieldNode[]>;
  /** the FORBIDDEN error of each root field that selects something forbidden */
  forbidden: Map<string, GraphQLError>;
  /** a forbidden root field is non-null: its null takes `data` with it, as graphql-js propagates it */
  dataIsNull: boolean;
  operation: OperationDefinitionNode;
}

/** Which root fields of a refused operation select something forbidden; undefined when no root field can be named. */
const verdictByRootField = (schema: GraphQLSchema, document: DocumentNode, principal: Principal, operationName: string | null | undefined, variables: Variables): Verdict | undefined => {
  const operation = getOperationAST(document, operationName);
  const rootType = operation && schema.getRootType(operation.operation);
  if (!operation || !rootType) return undefined;
  const fragments = Object.fromEntries(document.definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition]] : [])));
  const { fields } = collectFields(schema, fragments, { coerced: variables, sources: {} }, rootType, operation.selectionSet);
  const forbidden = new Map<string, GraphQLError>();
  let dataIsNull = false;
  for (const [key, nodes] of fields) {
    const [error] = findForbidden(schema, withRootFields(document, operation, nodes), principal, operationName);
    if (!error) continue;
    forbidden.set(key, forbiddenError(error.message, {}, [key]));
    const type = rootType.getFields()[nodes[0].name.value]?.type;
    if (type && isNonNullType(type)) dataIsNull = true;
  }
  return forbidden.size > 0 ? { fields, forbidden, dataIsNull, operation } : undefined;
};

/** The forbidden root fields answer null beside their errors, in selection order, the others as executed. */
const merged = (verdict: Verdict, executed: ExecutionResult | undefined): ExecutionResult => {
  const errors = [...verdict.forbidden.values(), ...(executed?.errors ?? [])];
  if (verdict.dataIsNull) return { data: null, errors };
  const data: Record<string, unknown> = {};
  for (const key of verdict.fields.keys()) data[key] = verdict.forbidden.has(key) ? null : (executed?.data?.[key] ?? null);
  return { ...executed, data, errors };
};

/**
 * Strapi checks permissions field by field, so a forbidden root field answers null with a FORBIDDEN
 * error at its path while the others run. Here the check comes first, for the whole operation: the
 * root fields that select anything forbidden are taken out before execution, and put back as nulls.
 */
export const useAuthorization = (principalOf: (context: unknown) => Principal): Plugin => {
  // yoga hands the same DocumentNode for the same query text: a verdict is computed once per document and permission set
  const verdicts = new WeakMap<DocumentNode, Map<string, boolean>>();
  return {
    // A subscription streams one root field: it is allowed whole or refused whole before it starts.
    onSubscribe({ args, setResultAndStopExecution }) {
      const [error] = findForbidden(args.schema, args.document, principalOf(args.contextValue), args.operationName);
      if (error) setResultAndStopExecution({ data: null, errors: [forbiddenError(error.message)] });
    },
    onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      const principal = principalOf(args.contextValue);
      let byKey = verdicts.get(args.document);
      if (!byKey) verdicts.set(args.document, (byKey = new Map()));
      const key = verdictKey(principal, args.operationName);
      let allowed = byKey.get(key);
      if (allowed === undefined) byKey.set(key, (allowed = findForbidden(args.schema, args.document, principal, args.operationName).length === 0));
      if (allowed) return undefined;
      const verdict = verdictByRootField(args.schema, args.document, principal, args.operationName, (args.variableValues ?? {}) as Variables);
      if (!verdict) {
        setResultAndStopExecution({ data: null, errors: findForbidden(args.schema, args.document, principal, args.operationName).slice(0, 1) });
        return undefined;
      }
      const runnable = [...verdict.fields].flatMap(([field, nodes]) => (verdict.forbidden.has(field) ? [] : nodes));
      if (verdict.dataIsNull || runnable.length === 0) {
        setResultAndStopExecution(merged(verdict, undefined));
        return undefined;
      }
      const document = withRootFields(args.document, verdict.operation, runnable);
      setExecuteFn((executeArgs) => executeFn({ ...executeArgs, document }));
      return {
        onExecuteDone({ result, setResult }) {
          if (!isAsyncIterable(result)) setResult(merged(verdict, result));
        },
      };
    },
  };
};
