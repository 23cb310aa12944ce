import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../src/storage/embedded/create-embedded-store';
import type { Store } from '../../src/storage/types';
import { createRateLimiter, refuseOverLimit, RATE_LIMITS_COLLECTION } from '../../src/users/rate-limiter';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'folio-rate-'));
  store = openEmbeddedStore(dir);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('max hits in any window per key; the window slides past the oldest hit', async () => {
  const limiter = createRateLimiter(store, { max: 2, windowMs: 1000 });
  expect(await limiter.hit('a', 0)).toEqual({ allowed: true, limit: 2, remaining: 1, resetAt: 1000 });
  expect((await limiter.hit('a', 500)).allowed).toBe(true);
  expect(await limiter.hit('a', 600)).toEqual({ allowed: false, limit: 2, remaining: 0, resetAt: 1000 });
  expect((await limiter.hit('b', 600)).allowed).toBe(true);
  // the hit at 0 has left the window, the one at 500 has not
  expect(await limiter.hit('a', 1000)).toEqual({ allowed: true, limit: 2, remaining: 0, resetAt: 1500 });
  expect((await limiter.hit('a', 1100)).allowed).toBe(false);
});

test('two limiters on one store share the count, as instances on one database do', async () => {
  const options = { max: 3, windowMs: 60_000 };
  const [one, two] = [createRateLimiter(store, options), createRateLimiter(store, options)];
  const decisions = [await one.hit('client', 1), await two.hit('client', 2), await one.hit('client', 3), await two.hit('client', 4)];
  expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
});

test('refused hits are not recorded, and expired ones are pruned', async () => {
  const limiter = createRateLimiter(store, { max: 1, windowMs: 1000 });
  for (let at = 0; at < 10; at += 1) await limiter.hit('flood', at);
  expect(await store.collection(RATE_LIMITS_COLLECTION).countDocuments({})).toBe(1);
  await limiter.hit('other', 5000);
  expect(await store.collection(RATE_LIMITS_COLLECTION).find({}, { projection: ['key'] })).toEqual([{ key: 'other' }]);
});

test('refuseOverLimit throws a 429 with the seconds left', () => {
  expect(() => refuseOverLimit({ allowed: true, limit: 1, remaining: 0, resetAt: 5000 }, 0)).not.toThrow();
  try {
    refuseOverLimit({ allowed: false, limit: 1, remaining: 0, resetAt: 5000 }, 1200);
    throw new Error('expected a refusal');
  } catch (error) {
    expect((error as { extensions: unknown }).extensions).toMatchObject({ code: 'RATE_LIMITED', http: { status: 429, headers: { 'retry-after': '4' } } });
  }
});
