import type { Plugin } from '@envelop/core';
import { getOperationAST, validate, type ASTVisitor, type DocumentNode, type GraphQLError, type GraphQLSchema, type ValidationContext } from 'graphql';
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
    const forbid = (field: string) => context.reportError(forbiddenError('Forbidden access', { field }));
    return {
      // Without a single operation to run, execution refuses the document anyway: check all of it.
      OperationDefinition: (node) => (operation && node !== operation ? false : undefined),
      FragmentDefinition: (node) => (operation && !reached.has(node.name.value) ? false : undefined),
      Field(node) {
        const field = context.getFieldDef();
        if (!field || field.name.startsWith('__')) return;
        const auth = authOf(field);
        if (auth === false) return;
        if (auth === undefined) {
          if (principal.kind === 'public' && rootTypes.has(context.getParentType())) forbid(node.name.value);
          return;
        }
        if (auth.scope.some((permission) => !principal.can(permission))) forbid(node.name.value);
      },
    };
  };

export const findForbidden = (schema: GraphQLSchema, document: DocumentNode, principal: Principal, operationName?: string | null) =>
  validate(schema, document, [authorizationRule(principal, operationName)]);

/** Principals that hold the same permissions share a verdict (users of one role, tokens of one permission set). */
const verdictKey = (principal: Principal, operationName?: string | null): string => `${principal.grants}|${operationName ?? ''}`;

export const useAuthorization = (principalOf: (context: unknown) => Principal): Plugin => {
  // yoga hands the same DocumentNode for the same query text: a verdict is computed once per document and permission set
  const verdicts = new WeakMap<DocumentNode, Map<string, readonly GraphQLError[]>>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const principal = principalOf(args.contextValue);
      let byKey = verdicts.get(args.document);
      if (!byKey) verdicts.set(args.document, (byKey = new Map()));
      const key = verdictKey(principal, args.operationName);
      let errors = byKey.get(key);
      if (!errors) byKey.set(key, (errors = findForbidden(args.schema, args.document, principal, args.operationName)));
      if (errors.length > 0) setResultAndStopExecution({ data: null, errors: [errors[0]] });
    },
  };
};
