/** Who is asking, and what they may do. Every permission check asks `can`. */

export interface Principal {
  kind: 'public' | 'user' | 'api-token';
  /** role name for public and users; token type for API tokens */
  role: string;
  userId?: number;
  tokenName?: string;
  can(permission: string): boolean;
}

export const createRolePrincipal = (
  kind: Principal['kind'],
  role: string,
  permissions: ReadonlySet<string>,
  extra: Pick<Principal, 'userId' | 'tokenName'> = {},
): Principal => ({ kind, role, ...extra, can: (permission) => permissions.has(permission) });

const READ_ACTIONS = new Set(['find', 'findOne']);

/** API token types: full access, read-only (find/findOne of everything) or a custom list. */
export const createTokenPrincipal = (name: string, type: 'full-access' | 'read-only' | 'custom', permissions: ReadonlySet<string>): Principal => ({
  kind: 'api-token',
  role: type,
  tokenName: name,
  can: (permission) => {
    if (type === 'full-access') return true;
    if (type === 'read-only') return READ_ACTIONS.has(permission.slice(permission.lastIndexOf('.') + 1));
    return permissions.has(permission);
  },
});
