import type { FolioConfig } from '../config/types';
import type { Store } from '../storage/types';
import type { DocumentService } from '../documents/document-service';
import type { AccountDirectory } from '../auth/authenticate';
import { USER_CONTENT_TYPE, publicFieldsOf } from './users-content-types';
import { AUTHENTICATED_ROLE, PUBLIC_ROLE, loadRoleTypes, rolePermissions } from './roles';

/** Users as authentication sees them. Roles are fixed by the config and seeded at start, so this is made after. */
export const createAccountDirectory = async (config: FolioConfig, store: Store, documents: DocumentService): Promise<AccountDirectory> => {
  const permissions = rolePermissions(config);
  const roleTypes = await loadRoleTypes(documents);
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
      return { user, roleType: (typeof user.role === 'string' ? roleTypes.get(user.role) : undefined) ?? AUTHENTICATED_ROLE };
    },
  };
};
