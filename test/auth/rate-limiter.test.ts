import { createRateLimiter, refuseOverLimit } from '../../src/users/rate-limiter';

test('max hits per window and key, then a fresh window', () => {
  const limiter = createRateLimiter({ max: 2, windowMs: 1000 });
  expect(limiter.hit('a', 0)).toEqual({ allowed: true, limit: 2, remaining: 1, resetAt: 1000 });
  expect(limiter.hit('a', 10).allowed).toBe(true);
  expect(limiter.hit('a', 20)).toEqual({ allowed: false, limit: 2, remaining: 0, resetAt: 1000 });
  expect(limiter.hit('b', 30).allowed).toBe(true);
  expect(limiter.hit('a', 1000)).toEqual({ allowed: true, limit: 2, remaining: 1, resetAt: 2000 });
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
