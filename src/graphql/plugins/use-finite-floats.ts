import type { Plugin } from 'graphql-yoga';
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';

/**
 * graphql-js reads a Float literal with parseFloat and no finiteness check, so `1e400` reaches
 * resolvers as Infinity (its variables path does refuse it). Refused here as the variables
 * path refuses it.
 */
const finiteFloatsRule = (context: ValidationContext): ASTVisitor => ({
  FloatValue(node) {
    if (!Number.isFinite(Number(node.value))) {
      context.reportError(new GraphQLError(`Float cannot represent non-finite value: ${node.value}`, { nodes: node, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
    }
  },
});

export const useFiniteFloats = (): Plugin => ({
  onValidate({ addValidationRule }) {
    addValidationRule(finiteFloatsRule);
  },
});
