import { loadFrom } from './config-dir';

/** `graphql.config.responseCache`: off by default, `true` for the defaults, or its own ttl and size. */

const responseCacheOf = (responseCache?: unknown) =>
  loadFrom({ 'plugins.json': responseCache === undefined ? {} : { graphql: { config: { responseCache } } } }).graphql.responseCache;

test('off by default; true takes a minute and a thousand answers; an object overrides either', () => {
  expect(responseCacheOf()).toBe(false);
  expect(responseCacheOf(false)).toBe(false);
  expect(responseCacheOf(true)).toEqual({ ttl: 60_000, max: 1000 });
  expect(responseCacheOf({ ttl: 5000 })).toEqual({ ttl: 5000, max: 1000 });
});

test('anything else is a config error naming the key', () => {
  expect(() => responseCacheOf('yes')).toThrow(/graphql\.config\.responseCache must be a boolean or an object/);
  expect(() => responseCacheOf({ ttl: 0 })).toThrow(/graphql\.config\.responseCache\.ttl must be a positive integer/);
});
