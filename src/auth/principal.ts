import type { StoredDocument } from '../storage/types';

/** Who is asking, and what they may do. Every permission check asks `can`. */

export type ApiTokenType = 'full-access' | 'read-only' | 'custom';

export interface Principal {
  kind: 'public' | 'user' | 'api-token';
  /** role type for public and users; token type for API tokens */
  role: string;
  /** the signed-in user's public attributes (never a private one), the role as a reference */
  user?: StoredDocument;
  tokenName?: string;
  /**
   * Names the permission set: principals with equal `grants` get equal answers from `can`, so answers
   * may be cached under it. A token's carries its permissions, not its name: a name can be reused.
   */
  grants: string;
  can(permission: string): boolean;
}

/**
 * The Public role, or a user's role. A user gets their role's permissions only: the Public role's
 * grants do not add up (Strapi's rule). `generation`: of the roles' grants, so a role's permission
 * set is named anew when what it grants changes.
 */
export const createRolePrincipal = (
  kind: 'public' | 'user',
  role: string,
  permissions: ReadonlySet<string>,
  generation: number,
  extra: Pick<Principal, 'user'> = {},
): Principal => ({ kind, role, ...extra, grants: `${kind}:${role}@${generation}`, can: (permission) => permissions.has(permission) });

const READ_ACTIONS = new Set(['find', 'findOne']);

/** API token types: full access, read-only (find/findOne of everything) or a custom list. */
export const createTokenPrincipal = (name: string, type: ApiTokenType, permissions: ReadonlySet<string>): Principal => ({
  kind: 'api-token',
  role: type,
  tokenName: name,
  grants: `api-token:${type}:${type === 'custom' ? [...permissions].sort().join(',') : ''}`,
  can: (permission) => {
    if (type === 'full-access') return true;
    if (type === 'read-only') return READ_ACTIONS.has(permission.slice(permission.lastIndexOf('.') + 1));
    return permissions.has(permission);
  },
});

/**
 * The caller with one more permission, on one request: what a project route's `auth: false` gives
 * its own action. The permission set has a name of its own, so verdicts cached for the caller stay theirs.
 */
export const withPermission = (principal: Principal, permission: string): Principal => ({
  ...principal,
  grants: `${principal.grants}+${permission}`,
  can: (asked) => asked === permission || principal.can(asked),
});
