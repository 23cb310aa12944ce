import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { StoredDocument } from '../types';
import { createMatcher, type Matcher } from '../create-matcher';
import { textPredicate } from '../text-form';

const MAX_COMPILED = 256;

/** `make()`'s value under `key`, remembered; past `limit` entries the memory starts over. */
export function cached<T>(cache: Map<string, T>, key: string, limit: number, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= limit) cache.clear();
    cache.set(key, (value = make()));
  }
  return value;
}

/**
 * What compiled filters call (compile-filter), on every connection: `folio_match(doc, condition)` tests a
 * document against a store condition with the in-memory matcher, `folio_regex(value, pattern, options)` a string
 * against a RegExp, `folio_text_regex(json, pattern, options)` the text form of a JSON value (`$asText`), and the
 * aggregate `folio_integer_text_sum(text)` the exact sum of integers written as decimal text (big integers, past
 * SQLite's 64 bits), as text. All are pure, and compiled conditions are remembered per connection.
 */
export function registerFunctions(sqlite: SqliteDatabase): void {
  const matchers = new Map<string, Matcher>();
  const regexes = new Map<string, RegExp>();
  sqlite.function('folio_match', { deterministic: true }, (doc: unknown, condition: unknown) => {
    const matches = cached(matchers, String(condition), MAX_COMPILED, () => createMatcher(JSON.parse(String(condition))));
    return matches(JSON.parse(String(doc)) as StoredDocument) ? 1 : 0;
  });
  sqlite.function('folio_regex', { deterministic: true }, (value: unknown, pattern: unknown, options: unknown) => {
    if (typeof value !== 'string') return 0;
    const regex = cached(regexes, `${String(options)}/${String(pattern)}`, MAX_COMPILED, () => new RegExp(String(pattern), String(options)));
    return regex.test(value) ? 1 : 0;
  });
  const textTests = new Map<string, (value: unknown) => boolean>();
  sqlite.function('folio_text_regex', { deterministic: true }, (json: unknown, pattern: unknown, options: unknown) => {
    if (typeof json !== 'string') return 0;
    const matches = cached(textTests, `${String(options)}/${String(pattern)}`, MAX_COMPILED, () => textPredicate({ $regex: String(pattern), $options: String(options) }));
    return matches(JSON.parse(json)) ? 1 : 0;
  });
  sqlite.aggregate('folio_integer_text_sum', {
    start: (): bigint | null => null,
    step: (sum: bigint | null, value: unknown) => (typeof value === 'string' && INTEGER_TEXT.test(value) ? (sum ?? 0n) + BigInt(value) : sum),
    result: (sum: bigint | null) => (sum === null ? null : sum.toString()),
  });
}

const INTEGER_TEXT = /^-?\d+$/;
