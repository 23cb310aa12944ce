import { createDecoyCheck, hashPassword, verifyPassword } from '../../src/documents/password-hash';

test('a hash carries its scheme, cost and salt, and verifies only its own password', async () => {
  const hash = await hashPassword('Passw0rd!');
  expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
  expect(await verifyPassword('Passw0rd!', hash)).toBe(true);
  expect(await verifyPassword('passw0rd!', hash)).toBe(false);
  expect(await hashPassword('Passw0rd!')).not.toBe(hash);
});

test('a damaged or foreign hash verifies nothing', async () => {
  const hash = await hashPassword('secret-one');
  expect(await verifyPassword('secret-one', hash.slice(0, -4))).toBe(false);
  expect(await verifyPassword('secret-one', `bcrypt${hash.slice(6)}`)).toBe(false);
  expect(await verifyPassword('secret-one', '')).toBe(false);
});

test('the decoy check costs about what a real check costs', async () => {
  const hash = await hashPassword('secret-two');
  const decoy = createDecoyCheck();
  await decoy('warm-up');
  const time = async (work: () => Promise<unknown>) => {
    const started = process.hrtime.bigint();
    await work();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const real = await time(() => verifyPassword('wrong', hash));
  const fake = await time(() => decoy('wrong'));
  expect(fake).toBeGreaterThan(real / 3);
});
