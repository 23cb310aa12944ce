import { isEmailAddress, MAX_EMAIL_LENGTH } from '../../src/common/email-address';

test.each(['a@b.co', 'first.last+tag@mail.example.org', 'x@y.z', 'Ünïcode@exämple.de'])('%s is an address', (value) => {
  expect(isEmailAddress(value)).toBe(true);
});

test.each(['', 'a', 'a@', '@b.co', 'a@b', 'a@.b', 'a@b.', 'a@@b.co', 'a@b@c.de', 'a b@c.de', 'a@b.c\n', 'a@b .co'])('%j is not', (value) => {
  expect(isEmailAddress(value)).toBe(false);
});

test('the RFC 5321 length cap: 254 characters pass, 255 do not', () => {
  const at254 = `${'a'.repeat(MAX_EMAIL_LENGTH - '@example.com'.length)}@example.com`;
  expect(at254).toHaveLength(254);
  expect(isEmailAddress(at254)).toBe(true);
  expect(isEmailAddress(`a${at254}`)).toBe(false);
});

test('the input that made the old pattern backtrack for seconds is refused', () => {
  expect(isEmailAddress(`a@${'.'.repeat(100_000)}@`)).toBe(false);
});
