import type { Plugin } from '@envelop/core';
import { useDepthLimit } from '@envelop/depth-limit';
import { NoFragmentCyclesRule, validate } from 'graphql';

/**
 * @envelop/depth-limit (root field = depth 0, as Strapi counts) recurses through fragment
 * spreads without a visited set, so a fragment cycle overflows the stack. Such documents are
 * invalid anyway: leave them to graphql's own NoFragmentCycles rule and skip the depth count.
 */
export const useSafeDepthLimit = (maxDepth: number): Plugin => {
  const depthLimit = useDepthLimit({ maxDepth });
  return {
    onValidate(payload) {
      const { schema, documentAST } = payload.params;
      if (validate(schema, documentAST, [NoFragmentCyclesRule]).length > 0) return;
      return depthLimit.onValidate?.(payload);
    },
  };
};
