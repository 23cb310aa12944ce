import type { Services } from '../resolvers/context';
import { unauthorizedError } from '../errors/graphql-errors';
import { USER_CONTENT_TYPE, publicFieldsOf } from '../users/users-content-types';
import { AUTHENTICATED_ROLE, PUBLIC_ROLE, loadRoleTypes, rolePermissions } from '../users/roles';
import { createRolePrincipal, createTokenPrincipal, type Principal } from './principal';
import { createJwtService } from './jwt';
import { createApiTokens } from './api-tokens';

/**
 * Turns a request's `Authorization` header into a principal. No header: the Public role. A bearer
 * credential is an API token or a user's JWT; one that opens nothing (unknown, malformed, expired,
 * revoked, or a blocked or deleted user's) is refused with 401, even where Public could read.
 *
 * Tokens and users are looked up in the store on every request, so a token revoked from the CLI or a
 * user blocked a moment ago is refused on the next request; roles are fixed by the config at start.
 */

export interface Authenticator {
  authenticate(authorization: string | null): Promise<Principal>;
}

const BEARER = /^Bearer\s+(\S+)$/i;
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

export const createAuthenticator = async (services: Services): Promise<Authenticator> => {
  const { config, store, documents, secrets } = services;
  const jwt = createJwtService(secrets.jwtKey, config.usersPermissions.jwt.expiresIn);
  const tokens = createApiTokens(store, secrets.tokenSalt);
  const permissions = rolePermissions(config);
  const roleTypes = await loadRoleTypes(documents);
  const users = store.collection(USER_CONTENT_TYPE.collectionName);
  const userFields = publicFieldsOf(USER_CONTENT_TYPE);
  const none: ReadonlySet<string> = new Set();
  const publicPrincipal = createRolePrincipal('public', PUBLIC_ROLE, permissions.get(PUBLIC_ROLE) ?? none);

  const userPrincipal = async (jwtToken: string): Promise<Principal | undefined> => {
    const userId = jwt.verify(jwtToken);
    if (userId === undefined) return undefined;
    // Never the private attributes: the user travels in the context, to policies and `me`.
    const user = await users.findOne({ id: userId }, { projection: [...userFields, 'role'] });
    if (!user || user.blocked === true) return undefined;
    const type = (typeof user.role === 'string' ? roleTypes.get(user.role) : undefined) ?? AUTHENTICATED_ROLE;
    return createRolePrincipal('user', type, permissions.get(type) ?? none, { user });
  };

  return {
    async authenticate(authorization) {
      if (authorization === null || authorization.trim() === '') return publicPrincipal;
      const credential = BEARER.exec(authorization.trim())?.[1];
      if (credential === undefined) throw unauthorizedError();
      // A JWT is tried first only to spare users the token lookup; a key declared in config/admin may
      // look like one, so a credential that is no valid JWT is still looked up as a token.
      const user = JWT_SHAPE.test(credential) ? await userPrincipal(credential) : undefined;
      if (user) return user;
      const token = await tokens.find(credential);
      if (!token) throw unauthorizedError();
      return createTokenPrincipal(token.name, token.type, new Set(token.permissions));
    },
  };
};
