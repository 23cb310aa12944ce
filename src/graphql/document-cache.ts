import { visit, type DocumentNode } from 'graphql';
import { createLruCache } from '../common/lru-cache';

/**
 * Caches of parsed documents, bounded by the source bytes they hold: a parsed document (with its
 * token list) takes ~80 times its source in memory, and yoga's default keeps 1,024 documents of
 * any size (1,200 distinct 900 KB queries grew the process by 850 MB). 512 KB of source is
 * ~40 MB of documents, hundreds of real operations; a document over 32 KB is parsed each time.
 */
export const createDocumentCache = <V>(sourceOf: (key: string, value: V) => string = (key) => key) =>
  createLruCache<V>({ maxEntries: 1024, maxWeight: 512 * 1024, maxEntryWeight: 32 * 1024, weigh: (key, value) => sourceOf(key, value).length });

/**
 * Lets go of the token list a parsed document keeps through its nodes' locations: nothing after the parser
 * reads it (errors place themselves by `loc.start` in `loc.source`), and it is 28 % of a cached document
 * (a 170-character list query: 13.5 KB parsed, 9.7 KB without).
 */
export const dropTokens = (document: DocumentNode): DocumentNode => {
  visit(document, {
    enter(node) {
      const loc = node.loc as { startToken: unknown; endToken: unknown } | undefined;
      if (loc) loc.startToken = loc.endToken = null;
    },
  });
  return document;
};

/** yoga's parse cache: what it keeps is kept without tokens. */
export const createParsedDocumentCache = () => {
  const cache = createDocumentCache<DocumentNode>();
  return { get: (key: string) => cache.get(key), set: (key: string, document: DocumentNode) => cache.set(key, dropTokens(document)) };
};
