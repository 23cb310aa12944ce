import type { Plugin } from '@envelop/core';
import { useDepthLimit } from '@envelop/depth-limit';
import { KnownFragmentNamesRule, NoFragmentCyclesRule, validate, type DocumentNode } from 'graphql';

/**
 * @envelop/depth-limit (root field = depth 0, as Strapi counts) follows fragment spreads
 * blindly: a cycle overflows the stack, an unknown fragment throws. Such documents are invalid
 * anyway: leave them to graphql's own rules and skip the depth count.
 */
export const useSafeDepthLimit = (maxDepth: number): Plugin => {
  const depthLimit = useDepthLimit({ maxDepth });
  // yoga hands the same DocumentNode for the same query text: decide once per document
  const broken = new WeakMap<DocumentNode, boolean>();
  const hasBrokenFragments = (schema: Parameters<typeof validate>[0], document: DocumentNode): boolean => {
    let known = broken.get(document);
    if (known === undefined) {
      known = validate(schema, document, [KnownFragmentNamesRule, NoFragmentCyclesRule]).length > 0;
      broken.set(document, known);
    }
    return known;
  };
  return {
    onValidate(payload) {
      const { schema, documentAST } = payload.params;
      if (hasBrokenFragments(schema, documentAST)) return;
      return depthLimit.onValidate?.(payload);
    },
  };
};
