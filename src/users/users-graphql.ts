import type { Extension } from '../extensions/types';
import type { FolioContext } from '../context';
import type { DocumentService } from '../documents/document-service';
import type { StoredDocument } from '../storage/types';
import { PERMISSION_UID, ROLE_CONTENT_TYPE, ROLE_UID, USER_UID } from './users-content-types';
import { CHANGE_PASSWORD_PERMISSION, ME_PERMISSION, ROLE_WRITE_PERMISSIONS, USER_WRITE_PERMISSIONS } from './roles';
import type { RoleAdmin } from './role-admin';
import type { UserAdmin } from './user-admin';
import { refuseOverLimit, type RateLimiter } from './rate-limiter';
import { clientOfContext } from '../resolvers/client-address';
import type { UserAccounts } from './user-accounts';
import type { PasswordReset } from './password-reset';
import type { EmailConfirmation } from './email-confirmation';

/**
 * The users-permissions part of the GraphQL schema, named as Strapi names it: `register`, `login`,
 * `me`, and the plugin's user administration (`createUsersPermissionsUser`…, the `/api/users`
 * writes under the same permissions, on the user type's Shadow CRUD input). Users and roles get Shadow CRUD queries
 * (`usersPermissionsUsers`…) from their content types; their generic mutations are switched off.
 */

const USERS_PERMISSIONS_SDL = `
type UsersPermissionsMe {
  id: ID!
  documentId: ID!
  username: String!
  email: String
  confirmed: Boolean
  blocked: Boolean
  role: UsersPermissionsMeRole
}

type UsersPermissionsMeRole {
  id: ID!
  name: String!
  description: String
  type: String
}

input UsersPermissionsRegisterInput {
  username: String!
  email: String!
  password: String!
}

input UsersPermissionsLoginInput {
  identifier: String!
  password: String!
  provider: String! = "local"
}

type UsersPermissionsLoginPayload {
  jwt: String
  user: UsersPermissionsMe!
}

type UsersPermissionsPasswordPayload {
  ok: Boolean!
}

type UsersPermissionsUserEntityResponse {
  data: UsersPermissionsUser
}

type UsersPermissionsCreateRolePayload {
  ok: Boolean!
}

type UsersPermissionsUpdateRolePayload {
  ok: Boolean!
}

type UsersPermissionsDeleteRolePayload {
  ok: Boolean!
}

type Query {
  me: UsersPermissionsMe
}

type Mutation {
  login(input: UsersPermissionsLoginInput!): UsersPermissionsLoginPayload!
  """Register a user"""
  register(input: UsersPermissionsRegisterInput!): UsersPermissionsLoginPayload!
  """Request a reset password token"""
  forgotPassword(email: String!): UsersPermissionsPasswordPayload
  """Reset user password. Confirm with a code (resetToken from forgotPassword)"""
  resetPassword(password: String!, passwordConfirmation: String!, code: String!): UsersPermissionsLoginPayload
  """Change user password. Confirm with the current password."""
  changePassword(currentPassword: String!, password: String!, passwordConfirmation: String!): UsersPermissionsLoginPayload
  """Confirm an email users email address"""
  emailConfirmation(confirmation: String!): UsersPermissionsLoginPayload
  """Create a new role"""
  createUsersPermissionsRole(data: UsersPermissionsRoleInput!): UsersPermissionsCreateRolePayload
  """Update an existing role"""
  updateUsersPermissionsRole(id: ID!, data: UsersPermissionsRoleInput!): UsersPermissionsUpdateRolePayload
  """Delete an existing role"""
  deleteUsersPermissionsRole(id: ID!): UsersPermissionsDeleteRolePayload
  """Create a new user"""
  createUsersPermissionsUser(data: UsersPermissionsUserInput!): UsersPermissionsUserEntityResponse!
  """Update an existing user"""
  updateUsersPermissionsUser(id: ID!, data: UsersPermissionsUserInput!): UsersPermissionsUserEntityResponse!
  """Delete an existing user"""
  deleteUsersPermissionsUser(id: ID!): UsersPermissionsUserEntityResponse!
}
`;

/**
 * The input as the user administration takes it (a REST body, whose rules apply: `provider` and the
 * private tokens may not be set): the role by its numeric id; `publishedAt` and `locale`, which
 * users do not have, left alone.
 */
const userBody = (data: Record<string, unknown>): Record<string, unknown> => {
  const { publishedAt, locale, role, ...body } = data;
  void publishedAt;
  void locale;
  if (role === undefined) return body;
  return { ...body, role: typeof role === 'string' && /^\d+$/.test(role) ? Number(role) : role };
};

export interface UsersGraphqlOptions {
  documents: DocumentService;
  /** available once the module has started */
  accounts: () => UserAccounts;
  admin: () => UserAdmin;
  roleAdmin: () => RoleAdmin;
  passwordReset: PasswordReset;
  emailConfirmation: EmailConfirmation;
  limiter: RateLimiter;
}

export const createUsersGraphqlExtension = ({ documents, accounts, admin, roleAdmin, passwordReset, emailConfirmation, limiter }: UsersGraphqlOptions): Extension => {
  /** Sign-in, sign-up, password and confirmation mutations: counted per client, as their REST routes. */
  const limited =
    <A, R>(action: (args: A, context: FolioContext) => Promise<R>) =>
    async (_: unknown, args: A, context: FolioContext) => {
      refuseOverLimit(await limiter.hit(clientOfContext(context)));
      return action(args, context);
    };
  /** Strapi's role mutations answer `{ ok: true }` once done */
  const answeredOk =
    <A>(action: (args: A) => Promise<void>) =>
    async (_: unknown, args: A) => {
      await action(args);
      return { ok: true };
    };
  return {
    typeDefs: USERS_PERMISSIONS_SDL,
    resolvers: {
      Query: {
        // An API token may hold the permission, but it is nobody.
        me: (_: unknown, __: unknown, context: FolioContext) => context.principal.user ?? null,
      },
      Mutation: {
        register: limited((args: { input: unknown }) => accounts().register(args.input)),
        login: limited((args: { input: unknown }) => accounts().login(args.input)),
        // a stolen session must not make the current password guessable: limited like sign-in
        changePassword: limited((args: Record<string, unknown>, context) => accounts().changePassword(context.principal.user, args)),
        forgotPassword: limited((args: Record<string, unknown>) => passwordReset.forgotPassword(args)),
        resetPassword: limited((args: Record<string, unknown>) => passwordReset.resetPassword(args)),
        emailConfirmation: limited((args: Record<string, unknown>) => emailConfirmation.confirm(args)),
        createUsersPermissionsUser: async (_: unknown, args: { data: Record<string, unknown> }) => ({ data: await admin().create(userBody(args.data)) }),
        updateUsersPermissionsUser: async (_: unknown, args: { id: string; data: Record<string, unknown> }) => ({ data: await admin().update(Number(args.id), userBody(args.data)) }),
        deleteUsersPermissionsUser: async (_: unknown, args: { id: string }) => ({ data: await admin().remove(Number(args.id)) }),
        createUsersPermissionsRole: answeredOk((args: { data: unknown }) => roleAdmin().create(args.data)),
        updateUsersPermissionsRole: answeredOk((args: { id: string; data: unknown }) => roleAdmin().update(args.id, args.data)),
        deleteUsersPermissionsRole: answeredOk((args: { id: string }) => roleAdmin().remove(args.id)),
      },
      UsersPermissionsMe: {
        role: (user: StoredDocument) =>
          typeof user.role === 'string' ? documents.findOne(ROLE_CONTENT_TYPE, user.role, { status: 'published' }) : null,
      },
    },
    resolversConfig: {
      'Query.me': { auth: { scope: [ME_PERMISSION] } },
      'Mutation.register': { auth: false },
      'Mutation.login': { auth: false },
      // public, as Strapi's Public role has them: they are how a caller without a session gets one
      'Mutation.forgotPassword': { auth: false },
      'Mutation.resetPassword': { auth: false },
      'Mutation.emailConfirmation': { auth: false },
      'Mutation.changePassword': { auth: { scope: [CHANGE_PASSWORD_PERMISSION] } },
      'Mutation.createUsersPermissionsUser': { auth: { scope: [USER_WRITE_PERMISSIONS.create] } },
      'Mutation.updateUsersPermissionsUser': { auth: { scope: [USER_WRITE_PERMISSIONS.update] } },
      'Mutation.deleteUsersPermissionsUser': { auth: { scope: [USER_WRITE_PERMISSIONS.destroy] } },
      'Mutation.createUsersPermissionsRole': { auth: { scope: [ROLE_WRITE_PERMISSIONS.create] } },
      'Mutation.updateUsersPermissionsRole': { auth: { scope: [ROLE_WRITE_PERMISSIONS.update] } },
      'Mutation.deleteUsersPermissionsRole': { auth: { scope: [ROLE_WRITE_PERMISSIONS.destroy] } },
    },
    shadowCRUD: {
      [USER_UID]: { disableMutations: true },
      [ROLE_UID]: { disableMutations: true },
      // read through a role's `permissions`, as Strapi serves them
      [PERMISSION_UID]: { disableQueries: true, disableMutations: true },
    },
  };
};
