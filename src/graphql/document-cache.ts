import { createLruCache } from '../common/lru-cache';

/**
 * Caches of parsed documents, bounded by the source bytes they hold: a parsed document (with its
 * token list) takes ~80 times its source in memory, and yoga's default keeps 1,024 documents of
 * any size (1,200 distinct 900 KB queries grew the process by 850 MB). 512 KB of source is
 * ~40 MB of documents, hundreds of real operations; a document over 32 KB is parsed each time.
 */
export const createDocumentCache = <V>(sourceOf: (key: string, value: V) => string = (key) => key) =>
  createLruCache<V>({ maxEntries: 1024, maxWeight: 512 * 1024, maxEntryWeight: 32 * 1024, weigh: (key, value) => sourceOf(key, value).length });
