import type { StoredDocument } from '../storage/types';
import { unauthorizedError } from '../errors/graphql-errors';
import { createRolePrincipal, createTokenPrincipal, type Principal } from './principal';
import type { Credentials } from './credentials';

/**
 * Turns a request's `Authorization` header into a principal. No header: the Public role. A bearer
 * credential is an API token or a user's JWT; one that opens nothing (unknown, malformed, expired,
 * revoked, or a blocked or deleted user's) is refused with 401, even where Public could read.
 *
 * Tokens and users are looked up in the store on every request, so a token revoked from the CLI or a
 * user blocked a moment ago is refused on the next request.
 */

export interface Authenticator {
  authenticate(authorization: string | null): Promise<Principal>;
}

/** The accounts a JWT can name, provided by the users module. */
export interface AccountDirectory {
  /** the role type of callers without credentials */
  publicRole: string;
  /** the public attributes of an active (existing, unblocked) user and the type of their role */
  activeUser(id: number): Promise<{ user: StoredDocument; roleType: string } | undefined>;
  permissionsOf(roleType: string): ReadonlySet<string>;
  /** every role type with what it grants */
  roles(): ReadonlyMap<string, ReadonlySet<string>>;
  /** moves on whenever any role's grants change */
  generation(): number;
  /** resolves once the grants above are the store's as of now (another process may have changed them) */
  current(): Promise<void>;
}

const BEARER = /^Bearer\s+(\S+)$/i;
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

export const createAuthenticator = ({ jwt, tokens }: Credentials, accounts: AccountDirectory): Authenticator => {
  let publicPrincipal: Principal | undefined;
  let publicGeneration = -1;
  const publicOf = (): Principal => {
    const generation = accounts.generation();
    if (!publicPrincipal || publicGeneration !== generation) {
      publicPrincipal = createRolePrincipal('public', accounts.publicRole, accounts.permissionsOf(accounts.publicRole), generation);
      publicGeneration = generation;
    }
    return publicPrincipal;
  };

  const userPrincipal = async (jwtToken: string): Promise<Principal | undefined> => {
    const userId = jwt.verify(jwtToken);
    if (userId === undefined) return undefined;
    const account = await accounts.activeUser(userId);
    return account && createRolePrincipal('user', account.roleType, accounts.permissionsOf(account.roleType), accounts.generation(), { user: account.user });
  };

  return {
    async authenticate(authorization) {
      await accounts.current();
      if (authorization === null || authorization.trim() === '') return publicOf();
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
