import type { Extension } from '../extensions/types';
import type { FolioContext } from '../context';
import type { DocumentService } from '../documents/document-service';
import type { StoredDocument } from '../storage/types';
import { ROLE_CONTENT_TYPE, ROLE_UID, USER_UID } from './users-content-types';
import { CHANGE_PASSWORD_PERMISSION, ME_PERMISSION } from './roles';
import { refuseOverLimit, type RateLimiter } from './rate-limiter';
import { clientOfContext } from '../resolvers/client-address';
import type { SignedIn, UserAccounts } from './user-accounts';

/**
 * The users-permissions part of the GraphQL schema, named as Strapi names it: `register`, `login`
 * and `me`. Users and roles get Shadow CRUD queries (`usersPermissionsUsers`…) from their content
 * types; their generic mutations are switched off, since a user is only made by registering.
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

type Query {
  me: UsersPermissionsMe
}

type Mutation {
  login(input: UsersPermissionsLoginInput!): UsersPermissionsLoginPayload!
  """Register a user"""
  register(input: UsersPermissionsRegisterInput!): UsersPermissionsLoginPayload!
  """Change user password. Confirm with the current password."""
  changePassword(currentPassword: String!, password: String!, passwordConfirmation: String!): UsersPermissionsLoginPayload
}
`;

export interface UsersGraphqlOptions {
  documents: DocumentService;
  /** available once the module has started */
  accounts: () => UserAccounts;
  limiter: RateLimiter;
}

export const createUsersGraphqlExtension = ({ documents, accounts, limiter }: UsersGraphqlOptions): Extension => {
  const limited =
    <A>(action: (accounts: UserAccounts, args: A, context: FolioContext) => Promise<SignedIn>) =>
    async (_: unknown, args: A, context: FolioContext) => {
      refuseOverLimit(await limiter.hit(clientOfContext(context)));
      return action(accounts(), args, context);
    };
  return {
    typeDefs: USERS_PERMISSIONS_SDL,
    resolvers: {
      Query: {
        // An API token may hold the permission, but it is nobody.
        me: (_: unknown, __: unknown, context: FolioContext) => context.principal.user ?? null,
      },
      Mutation: {
        register: limited((accounts, args: { input: unknown }) => accounts.register(args.input)),
        login: limited((accounts, args: { input: unknown }) => accounts.login(args.input)),
        // a stolen session must not make the current password guessable: limited like sign-in
        changePassword: limited((accounts, args: Record<string, unknown>, context) => accounts.changePassword(context.principal.user, args)),
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
      'Mutation.changePassword': { auth: { scope: [CHANGE_PASSWORD_PERMISSION] } },
    },
    shadowCRUD: {
      [USER_UID]: { disableMutations: true },
      [ROLE_UID]: { disableMutations: true },
    },
  };
};
