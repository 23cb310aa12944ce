import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { createJwtService } from '../../src/auth/jwt';
import { parseDuration } from '../../src/auth/duration';

const secret = 'unit-test-secret-unit-test-secret';
const key = createSecretKey(Buffer.from(secret));
const service = createJwtService(key, '30d');

test('issues Strapi\'s { id } payload, expiring after jwt.expiresIn', () => {
  const token = service.issue(7);
  const payload = jwt.decode(token) as { id: number; iat: number; exp: number };
  expect(payload.id).toBe(7);
  expect(payload.exp - payload.iat).toBe(30 * 86400);
  expect(service.verify(token)).toBe(7);
});

test.each([
  ['alg none', () => jwt.sign({ id: 7 }, '', { algorithm: 'none' })],
  ['another key', () => jwt.sign({ id: 7 }, 'another-secret-another-secret-xx', { algorithm: 'HS256' })],
  ['another HMAC algorithm with the right key', () => jwt.sign({ id: 7 }, secret, { algorithm: 'HS384' })],
  ['an expired token', () => jwt.sign({ id: 7, exp: Math.floor(Date.now() / 1000) - 1 }, secret, { algorithm: 'HS256' })],
  ['a token not valid yet', () => jwt.sign({ id: 7 }, secret, { algorithm: 'HS256', notBefore: 3600 })],
  ['a string id', () => jwt.sign({ id: '7' }, secret, { algorithm: 'HS256' })],
  ['a negative id', () => jwt.sign({ id: -1 }, secret, { algorithm: 'HS256' })],
  ['garbage', () => 'a.b.c'],
])('refuses %s', (_, make) => {
  expect(service.verify(make())).toBeUndefined();
});

test('an unusable expiresIn fails when the service is made', () => {
  expect(() => createJwtService(key, 'soon')).toThrow('users-permissions.config.jwt.expiresIn: "soon" is not a duration such as "30d"');
});

test('durations need a unit', () => {
  expect(parseDuration('45s')).toBe(45_000);
  expect(parseDuration('90m')).toBe(5_400_000);
  expect(parseDuration('12h')).toBe(43_200_000);
  expect(parseDuration('2w')).toBe(14 * 86_400_000);
  expect(parseDuration('1y')).toBe(365 * 86_400_000);
  for (const wrong of ['30', '0d', '-1d', '1.5h', 'd', '', '1 d']) expect(parseDuration(wrong)).toBeUndefined();
});
