import type { FolioConfig } from '../config/types';
import type { DocumentService } from '../documents/document-service';
import type { Scope } from '../documents/scope';
import type { StoredDocument } from '../storage/types';
import { ROLE_CONTENT_TYPE } from './users-content-types';

/**
 * Roles are declared in `users-permissions.config.roles.<type>.permissions` and nowhere else: the
 * store keeps one row per role (users point at it), the permissions are read from the config.
 */

export const PUBLIC_ROLE = 'public';
export const AUTHENTICATED_ROLE = 'authenticated';
export const ME_PERMISSION = 'plugin::users-permissions.user.me';
export const CHANGE_PASSWORD_PERMISSION = 'plugin::users-permissions.auth.changePassword';
/** `/api/users` writes and their GraphQL mutations (`createUsersPermissionsUser`…; the users' Shadow CRUD mutations are off) */
export const USER_WRITE_PERMISSIONS = {
  create: 'plugin::users-permissions.user.create',
  update: 'plugin::users-permissions.user.update',
  destroy: 'plugin::users-permissions.user.destroy',
} as const;

const PUBLISHED: Scope = { status: 'published' };

/** Strapi's initial grants, which a Folio config adds to rather than replaces. */
const DEFAULT_GRANTS: Record<string, string[]> = {
  [PUBLIC_ROLE]: [],
  // as Strapi's default Authenticated role
  [AUTHENTICATED_ROLE]: [ME_PERMISSION, CHANGE_PASSWORD_PERMISSION],
};

const DEFAULT_DESCRIPTIONS: Record<string, string> = {
  [PUBLIC_ROLE]: 'Default role given to unauthenticated user.',
  [AUTHENTICATED_ROLE]: 'Default role given to authenticated user.',
};

export const rolePermissions = (config: FolioConfig): Map<string, ReadonlySet<string>> => {
  const types = new Set([...Object.keys(DEFAULT_GRANTS), ...Object.keys(config.usersPermissions.roles)]);
  return new Map(
    [...types].map((type) => [type, new Set([...(DEFAULT_GRANTS[type] ?? []), ...(config.usersPermissions.roles[type]?.permissions ?? [])])]),
  );
};

const displayNameOf = (type: string): string => type.charAt(0).toUpperCase() + type.slice(1);

/**
 * One row per declared role, created or refreshed at start; returns the rows by role type. Instances
 * starting together on one database may both create a role: the unique `type` keeps one, and the
 * other instance takes that one.
 */
export const seedRoles = async (config: FolioConfig, documents: DocumentService): Promise<Map<string, StoredDocument>> => {
  const existing = new Map((await documents.findMany(ROLE_CONTENT_TYPE, PUBLISHED)).map((row) => [row.type as string, row]));
  const create = async (data: StoredDocument): Promise<StoredDocument> => {
    try {
      return await documents.create(ROLE_CONTENT_TYPE, data, PUBLISHED);
    } catch (error) {
      const [created] = await documents.findMany(ROLE_CONTENT_TYPE, PUBLISHED, { filter: { type: data.type }, limit: 1 });
      if (created) return created;
      throw error;
    }
  };
  const seeded = new Map<string, StoredDocument>();
  for (const type of rolePermissions(config).keys()) {
    const data = {
      name: displayNameOf(type),
      description: config.usersPermissions.roles[type]?.description ?? DEFAULT_DESCRIPTIONS[type] ?? null,
      type,
    };
    const row = existing.get(type);
    const unchanged = row && row.name === data.name && row.description === data.description;
    seeded.set(
      type,
      !row
        ? await create(data)
        : unchanged
          ? row
          : await documents.update(ROLE_CONTENT_TYPE, row.documentId as string, data, PUBLISHED),
    );
  }
  return seeded;
};

/** role documentId → role type, for turning a user's `role` reference into permissions. */
export const loadRoleTypes = async (documents: DocumentService): Promise<Map<string, string>> =>
  new Map((await documents.findMany(ROLE_CONTENT_TYPE, PUBLISHED)).map((row) => [row.documentId as string, row.type as string]));
