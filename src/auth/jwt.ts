import type { KeyObject } from 'node:crypto';
import { parseDuration } from './duration';

/**
 * Users' JWTs, as Strapi issues them: `{ id }` signed HS256. Verification pins HS256, so `alg: none`
 * and algorithm-confusion tokens are refused whatever their header says.
 */

export interface JwtService {
  issue(userId: number): string;
  /** the user id, or undefined for a token that is malformed, forged, expired or not ours */
  verify(token: string): number | undefined;
}

const ALGORITHM = 'HS256';

export const createJwtService = (key: KeyObject, expiresIn: string): JwtService => {
  const lifetime = parseDuration(expiresIn);
  if (lifetime === undefined) throw new Error(`users-permissions.config.jwt.expiresIn: "${expiresIn}" is not a duration such as "30d"`);
  const expiresInSeconds = Math.ceil(lifetime / 1000);
  // Loaded by the first token issued or verified: jsonwebtoken and what it requires (semver, jws, parts of lodash)
  // are ~80 modules of every start, which anonymous reads and API tokens never need.
  let loaded: typeof import('jsonwebtoken') | undefined;
  const jwt = () => (loaded ??= require('jsonwebtoken') as typeof import('jsonwebtoken'));
  return {
    issue: (userId) => jwt().sign({ id: userId }, key, { algorithm: ALGORITHM, expiresIn: expiresInSeconds }),
    verify(token) {
      try {
        const payload = jwt().verify(token, key, { algorithms: [ALGORITHM] });
        const id = typeof payload === 'object' ? payload.id : undefined;
        return Number.isSafeInteger(id) && id > 0 ? (id as number) : undefined;
      } catch {
        return undefined;
      }
    },
  };
};
