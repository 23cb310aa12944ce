import type { IncomingMessage } from 'node:http';
import type { Authenticator } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import { forbiddenError } from '../errors/graphql-errors';

/** Who is calling a hand-written route (users, uploads), asked of the one authenticator `/graphql` asks too. */
export interface RequestAuthorizer {
  principalOf(request: IncomingMessage): Promise<Principal>;
  /** the caller, once it holds `permission`: 401 for a credential that opens nothing, 403 for a missing grant */
  authorize(request: IncomingMessage, permission: string): Promise<Principal>;
}

export const createRequestAuthorizer = (authenticator: Authenticator): RequestAuthorizer => {
  const principalOf = (request: IncomingMessage) => authenticator.authenticate(request.headers.authorization ?? null);
  return {
    principalOf,
    async authorize(request, permission) {
      const principal = await principalOf(request);
      if (!principal.can(permission)) throw forbiddenError('Forbidden');
      return principal;
    },
  };
};
