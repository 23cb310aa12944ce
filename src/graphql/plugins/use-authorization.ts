import type { Plugin } from '@envelop/core';
import { validate, type ASTVisitor, type DocumentNode, type GraphQLError, type GraphQLSchema, type ValidationContext } from 'graphql';
import { authOf } from '../../../directives';
import { forbiddenError } from '../../errors/graphql-errors';
import type { Principal } from '../../auth/principal';

/**
 * Checks every selected field's `@auth` scope against the principal before execution, in the
 * style of envelop's generic-auth: one validation pass, no per-resolver wrapping. A forbidden
 * operation answers HTTP 200 with a FORBIDDEN error, as Strapi does (Apollo Client keeps it).
 */

export const authorizationRule =
  (principal: Principal) =>
  (context: ValidationContext): ASTVisitor => ({
    Field(node) {
      const field = context.getFieldDef();
      if (!field) return;
      const auth = authOf(field);
      if (auth === undefined || auth === false) return;
      const missing = auth.scope.filter((permission) => !principal.can(permission));
      if (missing.length === 0) return;
      context.reportError(forbiddenError('Forbidden access', { field: node.name.value }));
    },
  });

export const findForbidden = (schema: GraphQLSchema, document: Parameters<typeof validate>[1], principal: Principal) =>
  validate(schema, document, [authorizationRule(principal)]);

/** Principals that hold the same permissions share a verdict. */
const permissionKey = (principal: Principal): string => `${principal.kind}|${principal.role}|${principal.tokenName ?? ''}`;

export const useAuthorization = (principalOf: (context: unknown) => Principal): Plugin => {
  // yoga hands the same DocumentNode for the same query text, so a verdict is computed once per document and permission set
  const verdicts = new WeakMap<DocumentNode, Map<string, readonly GraphQLError[]>>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const principal = principalOf(args.contextValue);
      let byPrincipal = verdicts.get(args.document);
      if (!byPrincipal) verdicts.set(args.document, (byPrincipal = new Map()));
      const key = permissionKey(principal);
      let errors = byPrincipal.get(key);
      if (!errors) byPrincipal.set(key, (errors = findForbidden(args.schema, args.document, principal)));
      if (errors.length > 0) setResultAndStopExecution({ data: null, errors: [errors[0]] });
    },
  };
};
