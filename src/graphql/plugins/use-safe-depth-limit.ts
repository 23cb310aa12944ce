import type { Plugin } from '@envelop/core';
import { useDepthLimit } from '@envelop/depth-limit';
import { Kind, NoFragmentCyclesRule, validate, type DocumentNode } from 'graphql';

/**
 * @envelop/depth-limit (root field = depth 0, as Strapi counts) recurses through fragment
 * spreads without a visited set, so a fragment cycle overflows the stack. Such documents are
 * invalid anyway: leave them to graphql's own NoFragmentCycles rule and skip the depth count.
 */
export const useSafeDepthLimit = (maxDepth: number): Plugin => {
  const depthLimit = useDepthLimit({ maxDepth });
  // yoga hands the same DocumentNode for the same query text: decide once per document
  const cyclic = new WeakMap<DocumentNode, boolean>();
  const hasFragmentCycle = (schema: Parameters<typeof validate>[0], document: DocumentNode): boolean => {
    let known = cyclic.get(document);
    if (known === undefined) {
      known =
        document.definitions.some((definition) => definition.kind === Kind.FRAGMENT_DEFINITION) &&
        validate(schema, document, [NoFragmentCyclesRule]).length > 0;
      cyclic.set(document, known);
    }
    return known;
  };
  return {
    onValidate(payload) {
      const { schema, documentAST } = payload.params;
      if (hasFragmentCycle(schema, documentAST)) return;
      return depthLimit.onValidate?.(payload);
    },
  };
};
