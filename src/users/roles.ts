import type { FolioConfig } from '../config/types';
import type { DocumentService } from '../documents/document-service';
import type { Scope } from '../documents/scope';
import type { StoredDocument } from '../storage/types';
import { PERMISSION_CONTENT_TYPE, ROLE_CONTENT_TYPE } from './users-content-types';

/**
 * Roles and the actions they grant are rows in the store, as in Strapi. A role listed in
 * `users-permissions.config.roles` belongs to the configuration: its grants are written from it at
 * every start and the API may not change it. Any other role (made through the API, or Public and
 * Authenticated when the configuration leaves them out) belongs to the API.
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

/** Strapi's role reads: the Shadow CRUD queries' and its REST routes'; `actions` lists what may be granted */
export const ROLE_READ_PERMISSIONS = {
  find: 'plugin::users-permissions.role.find',
  findOne: 'plugin::users-permissions.role.findOne',
  actions: 'plugin::users-permissions.permissions.getPermissions',
} as const;

/** Strapi's role administration actions (its role controller's), on both surfaces */
export const ROLE_WRITE_PERMISSIONS = {
  create: 'plugin::users-permissions.role.createRole',
  update: 'plugin::users-permissions.role.updateRole',
  destroy: 'plugin::users-permissions.role.deleteRole',
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

const displayNameOf = (type: string): string => type.charAt(0).toUpperCase() + type.slice(1);

export interface SeededRoles {
  /** the row of every role the configuration or Strapi's defaults declare, by role type */
  rows: Map<string, StoredDocument>;
  /** the types whose row this start created */
  created: Set<string>;
}

/** The role types Folio always has, and those the configuration lists. */
const declaredTypes = (config: FolioConfig): Set<string> => new Set([...Object.keys(DEFAULT_GRANTS), ...Object.keys(config.usersPermissions.roles)]);

/**
 * One row per declared role, created or refreshed at start. Instances starting together on one
 * database may both create a role: the unique `type` keeps one, and the other instance takes that one.
 */
export const seedRoles = async (config: FolioConfig, documents: DocumentService): Promise<SeededRoles> => {
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
  const created = new Set<string>();
  for (const type of declaredTypes(config)) {
    const data = {
      name: displayNameOf(type),
      description: config.usersPermissions.roles[type]?.description ?? DEFAULT_DESCRIPTIONS[type] ?? null,
      type,
    };
    const row = existing.get(type);
    if (!row) created.add(type);
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
  return { rows: seeded, created };
};

/**
 * Makes a role's permission rows grant exactly `actions`: what is missing is added, what is not
 * wanted any more is removed, and so is a second row of one action (two instances seeding together).
 * `current`: the role's rows, read by the caller.
 */
export const setRoleGrants = async (documents: DocumentService, roleId: string, actions: ReadonlySet<string>, current: StoredDocument[]): Promise<void> => {
  const kept = new Set<string>();
  for (const row of current) {
    const action = row.action as string;
    if (actions.has(action) && !kept.has(action)) kept.add(action);
    else await documents.remove(PERMISSION_CONTENT_TYPE, row.documentId as string, undefined);
  }
  for (const action of actions) {
    if (!kept.has(action)) await documents.create(PERMISSION_CONTENT_TYPE, { action, role: roleId }, PUBLISHED);
  }
};

/** the permission rows of every role, or of the role with documentId `roleId` */
export const readGrantRows = (documents: DocumentService, roleId?: string): Promise<StoredDocument[]> =>
  documents.findMany(PERMISSION_CONTENT_TYPE, PUBLISHED, roleId === undefined ? {} : { filter: { role: roleId } });

/**
 * Writes the grants the configuration declares: a listed role grants exactly what it lists (and
 * Authenticated Strapi's defaults too). Public and Authenticated, when not listed, get Strapi's
 * defaults once: when their row is made, or when no grant is stored at all (a store from before
 * grants were stored, whose roles held just those); after that they are the API's to change.
 */
export const applyConfiguredGrants = async (config: FolioConfig, documents: DocumentService, roles: SeededRoles): Promise<void> => {
  const rows = await readGrantRows(documents);
  for (const [type, role] of roles.rows) {
    const listed = config.usersPermissions.roles[type];
    if (!listed && !roles.created.has(type) && rows.length > 0) continue;
    const actions = new Set([...(DEFAULT_GRANTS[type] ?? []), ...(listed?.permissions ?? [])]);
    await setRoleGrants(documents, role.documentId as string, actions, rows.filter((row) => row.role === role.documentId));
  }
};

/** The type of a role the configuration owns, which the API may not change. */
export const isConfiguredRole = (config: FolioConfig, type: string): boolean => Object.hasOwn(config.usersPermissions.roles, type);
