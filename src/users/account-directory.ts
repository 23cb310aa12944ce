import type { FolioConfig } from '../config/types';
import type { Store } from '../storage/types';
import type { DocumentService } from '../documents/document-service';
import type { AccountDirectory } from '../auth/authenticate';
import { USER_CONTENT_TYPE, publicFieldsOf } from './users-content-types';
import { AUTHENTICATED_ROLE, PUBLIC_ROLE, loadRoleTypes, rolePermissions } from './roles';

/**
 * Users as authentication sees them. Roles are fixed by the config and seeded at start, so this is made after.
 * A role's type never changes once its row exists, so the types read are kept; a role id not known yet
 * (seeded by another instance on the same database after this one started) is read from the store.
 */
export const createAccountDirectory = async (config: FolioConfig, store: Store, documents: DocumentService): Promise<AccountDirectory> => {
  const permissions = rolePermissions(config);
  const roleTypes = await loadRoleTypes(documents);
  const roleTypeOf = async (roleId: string): Promise<string | undefined> => {
    if (!roleTypes.has(roleId)) for (const [id, type] of await loadRoleTypes(documents)) roleTypes.set(id, type);
    return roleTypes.get(roleId);
  };
  const users = store.collection(USER_CONTENT_TYPE.collectionName);
  const userFields = publicFieldsOf(USER_CONTENT_TYPE);
  const none: ReadonlySet<string> = new Set();
  return {
    publicRole: PUBLIC_ROLE,
    permissionsOf: (roleType) => permissions.get(roleType) ?? none,
    async activeUser(id) {
      // Never the private attributes: the user travels in the context, to policies and `me`.
      const user = await users.findOne({ id }, { projection: [...userFields, 'role'] });
      if (!user || user.blocked === true) return undefined;
      return { user, roleType: (typeof user.role === 'string' ? await roleTypeOf(user.role) : undefined) ?? AUTHENTICATED_ROLE };
    },
  };
};
