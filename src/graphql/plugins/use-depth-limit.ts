import type { Plugin } from '@envelop/core';
import type { DocumentNode, ValidationContext } from 'graphql';
import { depthLimitError } from '../../errors/graphql-errors';
import { operationDepths } from '../operation-depth';

/**
 * `depthLimit`: an operation deeper than `maxDepth` (operation-depth.ts: the root field is depth 0,
 * as Strapi counts) is refused at validation, one error per such operation, worded as
 * @envelop/depth-limit words it. Its walk is linear in the document, fragments counted once.
 */
export const useDepthLimit = (maxDepth: number): Plugin => {
  // yoga hands the same DocumentNode for the same query text: count once per document
  const counted = new WeakMap<DocumentNode, Array<{ name: string; depth: number }>>();
  const depthsOf = (document: DocumentNode) => {
    let depths = counted.get(document);
    if (!depths) {
      depths = [...operationDepths(document)].map(([operation, depth]) => ({ name: operation.name?.value ?? '', depth }));
      counted.set(document, depths);
    }
    return depths;
  };
  return {
    onValidate({ params, addValidationRule }) {
      const tooDeep = depthsOf(params.documentAST).filter(({ depth }) => depth > maxDepth);
      if (tooDeep.length === 0) return;
      // reported while the document is visited, where graphql-js stops at its 100th error and answers them:
      // reported from the rule's factory, its stop escaped as an INTERNAL_SERVER_ERROR
      addValidationRule((context: ValidationContext) => ({
        Document() {
          for (const { name } of tooDeep) context.reportError(depthLimitError(name, maxDepth));
        },
      }));
    },
  };
};
