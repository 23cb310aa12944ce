import type { Plugin } from 'graphql-yoga';
import type { ASTVisitor, ValidationContext } from 'graphql';
import { nonFiniteFloatError } from '../../errors/graphql-errors';

/**
 * graphql-js reads a Float literal with parseFloat and no finiteness check, so `1e400` reaches
 * resolvers as Infinity (its variables path does refuse it). Refused here as the variables
 * path refuses it.
 */
const finiteFloatsRule = (context: ValidationContext): ASTVisitor => ({
  FloatValue(node) {
    if (!Number.isFinite(Number(node.value))) {
      context.reportError(nonFiniteFloatError(node));
    }
  },
});

export const useFiniteFloats = (): Plugin => ({
  onValidate({ addValidationRule }) {
    addValidationRule(finiteFloatsRule);
  },
});
