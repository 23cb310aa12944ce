import { createHash } from 'node:crypto';
import { hasExpired, issueCode, RESET_CODE_LIFETIME_MS, storedFormOf } from '../../src/users/one-time-codes';

/** The mailed codes: random, kept only as their hash, and worthless past their expiry. */

test('a code is random, carries its expiry, and is stored as its SHA-256', () => {
  const now = Date.UTC(2026, 0, 1);
  const { code, stored } = issueCode(RESET_CODE_LIFETIME_MS, now);
  expect(code).toMatch(/^[0-9a-z]+\.[0-9a-f]{64}$/);
  expect(stored).toBe(createHash('sha256').update(code).digest('hex'));
  expect(storedFormOf(code)).toBe(stored);
  expect(issueCode(RESET_CODE_LIFETIME_MS, now).code).not.toBe(code);
  expect(hasExpired(code, now)).toBe(false);
  expect(hasExpired(code, now + RESET_CODE_LIFETIME_MS - 1)).toBe(false);
  expect(hasExpired(code, now + RESET_CODE_LIFETIME_MS)).toBe(true);
});

test('what Folio did not issue has no expiry to read, so it is expired', () => {
  for (const code of ['', 'abc', 'a'.repeat(128), `zzzzzzzzzzzz.${'a'.repeat(64)}`, `kx.${'A'.repeat(64)}`]) expect(hasExpired(code)).toBe(true);
});
