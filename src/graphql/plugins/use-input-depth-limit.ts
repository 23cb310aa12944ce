import type { Plugin } from 'graphql-yoga';
import { inputTooDeepError } from '../../errors/graphql-errors';
import type { ASTVisitor, ValidationContext } from 'graphql';

/**
 * Input values (variables and literals) nested deeper than `maxDepth` are refused before
 * anything recursive touches them: graphql-js coerces inputs recursively, and a 1,000-level
 * `and` would otherwise overflow the stack. Filters have their own, tighter bound later.
 */

/** Iterative, so the check itself cannot overflow. */
export const jsonDepthExceeds = (value: unknown, maxDepth: number): boolean => {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
};

const literalDepthRule =
  (maxDepth: number) =>
  (context: ValidationContext): ASTVisitor => {
    let depth = 0;
    let reported = false;
    const enter = () => {
      depth += 1;
      if (depth > maxDepth && !reported) {
        reported = true;
        context.reportError(inputTooDeepError(maxDepth));
      }
    };
    const leave = () => {
      depth -= 1;
    };
    return { ObjectValue: { enter, leave }, ListValue: { enter, leave } };
  };

export const useInputDepthLimit = (maxDepth: number): Plugin => ({
  onParams({ params }) {
    if (params.variables && jsonDepthExceeds(params.variables, maxDepth)) throw inputTooDeepError(maxDepth);
  },
  onValidate({ addValidationRule }) {
    addValidationRule(literalDepthRule(maxDepth));
  },
});
