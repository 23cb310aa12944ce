import type { Plugin } from 'graphql-yoga';
import { documentTooDeepError } from '../../errors/graphql-errors';

/**
 * Documents nested deeper than `maxNesting` brackets are refused before graphql-js parses them:
 * its parser is recursive, and ~10,000 levels of `{ a {` overflow the stack (an
 * INTERNAL_SERVER_ERROR, and a cost paid before any limit runs). The scan is one linear pass
 * that skips strings and comments, so a bracket inside them does not count.
 */

/** The deepest bracket nesting of a GraphQL source, or maxNesting + 1 as soon as it goes past. */
export const nestingDepth = (source: string, maxNesting: number): number => {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < source.length; index += 1) {
    const char = source.charCodeAt(index);
    if (char === 0x23 /* # */) {
      while (index < source.length && source.charCodeAt(index) !== 0x0a && source.charCodeAt(index) !== 0x0d) index += 1;
    } else if (char === 0x22 /* " */) {
      if (source.startsWith('"""', index)) {
        const end = source.indexOf('"""', index + 3);
        // a block string ends at the first unescaped """; \""" is an escape inside it
        let close = end;
        while (close !== -1 && source.charCodeAt(close - 1) === 0x5c) close = source.indexOf('"""', close + 3);
        index = close === -1 ? source.length : close + 2;
      } else {
        index += 1;
        while (index < source.length && source.charCodeAt(index) !== 0x22 && source.charCodeAt(index) !== 0x0a) {
          if (source.charCodeAt(index) === 0x5c) index += 1;
          index += 1;
        }
      }
    } else if (char === 0x7b || char === 0x5b || char === 0x28 /* { [ ( */) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > maxNesting) return deepest;
      }
    } else if (char === 0x7d || char === 0x5d || char === 0x29 /* } ] ) */) {
      depth -= 1;
    }
  }
  return deepest;
};

export const useNestingLimit = (maxNesting: number): Plugin => ({
  onParse({ params }) {
    if (nestingDepth(params.source.toString(), maxNesting) > maxNesting) {
      throw documentTooDeepError(maxNesting);
    }
  },
});
