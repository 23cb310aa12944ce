import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FolioConfig } from '../config/types';
import type { Services } from '../resolvers/context';
import { unauthorizedError } from '../errors/graphql-errors';
import { createRolePrincipal, createTokenPrincipal, type Principal } from './principal';

/**
 * Turns a request's `Authorization` header into a principal. No header: the Public role.
 * A bearer credential that nothing recognises is refused (401), even where Public could read.
 */

export interface Authenticator {
  authenticate(authorization: string | null): Promise<Principal>;
}

export const roleName = { public: 'public', authenticated: 'authenticated' } as const;

export const permissionsOfRole = (config: FolioConfig, role: string): Set<string> =>
  new Set(config.usersPermissions.roles[role]?.permissions ?? []);

const hashToken = (secret: string, token: string): Buffer => createHmac('sha512', secret).update(token).digest();

export const createAuthenticator = async ({ config }: Services): Promise<Authenticator> => {
  const publicPrincipal = createRolePrincipal('public', roleName.public, permissionsOfRole(config, roleName.public));
  const salt = config.admin.apiTokenSalt ?? 'folio-api-token';
  const seeded = config.admin.apiTokens.map((token) => ({
    hash: hashToken(salt, token.accessKey),
    principal: createTokenPrincipal(token.name, token.type, new Set(token.permissions ?? [])),
  }));
  return {
    async authenticate(authorization) {
      if (!authorization) return publicPrincipal;
      const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
      if (!match) throw unauthorizedError();
      const hash = hashToken(salt, match[1]);
      const token = seeded.find((candidate) => timingSafeEqual(candidate.hash, hash));
      if (!token) throw unauthorizedError();
      return token.principal;
    },
  };
};
