import type { Store } from '../storage/types';
import type { AccountDirectory } from '../auth/authenticate';
import { USER_CONTENT_TYPE, publicFieldsOf } from './users-content-types';
import { AUTHENTICATED_ROLE, PUBLIC_ROLE } from './roles';
import type { RoleGrants } from './role-grants';

/**
 * Users as authentication sees them, with what their roles grant. A role id not known yet (made by
 * another instance on the same database since the last poll) has the roles read again.
 * `confirmation`: sign-in waits for the e-mail confirmation, so an unconfirmed user's JWT (from a
 * password reset, say) opens nothing either, as Strapi's authentication refuses it.
 */
export const createAccountDirectory = (grants: RoleGrants, store: Store, { confirmation }: { confirmation: boolean }): AccountDirectory => {
  const roleTypeOf = async (roleId: string): Promise<string | undefined> => {
    if (grants.typeOf(roleId) === undefined) await grants.reload();
    return grants.typeOf(roleId);
  };
  const users = store.collection(USER_CONTENT_TYPE.collectionName);
  const userFields = publicFieldsOf(USER_CONTENT_TYPE);
  return {
    publicRole: PUBLIC_ROLE,
    permissionsOf: grants.permissionsOf,
    roles: grants.all,
    generation: grants.generation,
    current: grants.current,
    async activeUser(id) {
      // Never the private attributes: the user travels in the context, to policies and `me`.
      const user = await users.findOne({ id }, { projection: [...userFields, 'role'] });
      if (!user || user.blocked === true || (confirmation && user.confirmed !== true)) return undefined;
      return { user, roleType: (typeof user.role === 'string' ? await roleTypeOf(user.role) : undefined) ?? AUTHENTICATED_ROLE };
    },
  };
};
