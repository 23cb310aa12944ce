import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are stored as `scrypt$N$r$p$salt$hash` (salt and hash in base64): a slow, salted,
 * memory-hard hash whose cost travels with it, so it can be raised later without breaking old
 * hashes. N = 2^15 costs ~32 MB and tens of milliseconds per hash.
 */

const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 64;
const SALT_LENGTH = 16;
// Node refuses scrypt above 32 MB of memory unless told otherwise; 128·N·r is what it needs.
const maxmemOf = (options: { N: number; r: number }) => 128 * options.N * options.r * 2;

const derive = (password: string, salt: Buffer, options: ScryptOptions & { N: number; r: number }): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: maxmemOf(options) }, (error, key) => (error ? reject(error) : resolve(key))),
  );

export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
};

/** Spends what a real check costs, so a login for an unknown identifier takes as long as a wrong password. */
export const createDecoyCheck = () => {
  let decoy: Promise<string> | undefined;
  return async (password: string): Promise<void> => {
    await verifyPassword(password, await (decoy ??= hashPassword(randomBytes(16).toString('hex'))));
  };
};
