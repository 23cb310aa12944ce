import type { ContentType, Models } from '../models/types';

/**
 * Users and roles are content-types like the schema's, so relations to users (`createdBy`-style),
 * `UsersPermissionsUser` filters, sorting and the private-attribute rules all run through the one
 * pipeline. The singular/plural names carry the plugin prefix because the generated GraphQL names
 * (`UsersPermissionsUser`, `usersPermissionsUsers`) are derived from them, as Strapi names plugin types.
 * They have no REST routes of their own: `/api/users` is the module's.
 */

export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';
export const PERMISSION_UID = 'plugin::users-permissions.permission';

const BUILT_IN_FILE = '(built in: users-permissions)';

export const USER_CONTENT_TYPE: ContentType = {
  uid: USER_UID,
  apiName: 'users-permissions',
  kind: 'collectionType',
  collectionName: 'up_users',
  singularName: 'users-permissions-user',
  pluralName: 'users-permissions-users',
  displayName: 'User',
  draftAndPublish: false,
  localized: false,
  file: BUILT_IN_FILE,
  attributes: {
    username: { type: 'string', required: true, unique: true, minLength: 3, localized: false },
    email: { type: 'email', required: true, unique: true, minLength: 6, localized: false },
    provider: { type: 'string', localized: false },
    password: { type: 'password', private: true, localized: false },
    resetPasswordToken: { type: 'string', private: true, localized: false },
    confirmationToken: { type: 'string', private: true, localized: false },
    confirmed: { type: 'boolean', default: false, localized: false },
    blocked: { type: 'boolean', default: false, localized: false },
    role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'users', localized: false },
  },
};

export const ROLE_CONTENT_TYPE: ContentType = {
  uid: ROLE_UID,
  apiName: 'users-permissions',
  kind: 'collectionType',
  collectionName: 'up_roles',
  singularName: 'users-permissions-role',
  pluralName: 'users-permissions-roles',
  displayName: 'Role',
  draftAndPublish: false,
  localized: false,
  file: BUILT_IN_FILE,
  attributes: {
    name: { type: 'string', required: true, minLength: 3, localized: false },
    description: { type: 'string', localized: false },
    type: { type: 'string', unique: true, localized: false },
    permissions: { type: 'relation', relation: 'oneToMany', target: PERMISSION_UID, mappedBy: 'role', localized: false },
    users: { type: 'relation', relation: 'oneToMany', target: USER_UID, mappedBy: 'role', localized: false },
  },
};

/** One row per action a role grants, as Strapi stores them: what roles made through the API hold lives here. */
export const PERMISSION_CONTENT_TYPE: ContentType = {
  uid: PERMISSION_UID,
  apiName: 'users-permissions',
  kind: 'collectionType',
  collectionName: 'up_permissions',
  singularName: 'users-permissions-permission',
  pluralName: 'users-permissions-permissions',
  displayName: 'Permission',
  draftAndPublish: false,
  localized: false,
  file: BUILT_IN_FILE,
  attributes: {
    action: { type: 'string', required: true, localized: false },
    role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'permissions', localized: false },
  },
};

export const USERS_PERMISSIONS_CONTENT_TYPES = [USER_CONTENT_TYPE, ROLE_CONTENT_TYPE, PERMISSION_CONTENT_TYPE];

/** The user type as the project has it: the plugin's, with what `extensions/users-permissions` adds. */
export const userTypeOf = (models: Models): ContentType => models.contentTypes.get(USER_UID) ?? USER_CONTENT_TYPE;

/** The attributes a project added to the user that a caller may write: not the plugin's own, nothing private. */
export const addedUserAttributes = (userType: ContentType): string[] =>
  Object.entries(userType.attributes)
    .filter(([name, attribute]) => !(name in USER_CONTENT_TYPE.attributes) && attribute.private !== true && attribute.type !== 'password')
    .map(([name]) => name);

/**
 * What a REST answer shows of a user or role, in Strapi's key order: never a private attribute, and
 * relations only when populated.
 */
export const publicFieldsOf = (contentType: ContentType): string[] => [
  'id',
  'documentId',
  ...Object.entries(contentType.attributes)
    .filter(([, attribute]) => attribute.private !== true && attribute.type !== 'password' && attribute.type !== 'relation')
    .map(([name]) => name),
  'createdAt',
  'updatedAt',
  'publishedAt',
];
