import type { FolioModule, FolioModuleFactory } from '../server/folio-module';
import type { Services } from '../resolvers/context';
import { createJwtService } from '../auth/jwt';
import { createApiTokens } from '../auth/api-tokens';
import { openTokenControl, type TokenControl } from '../auth/token-control';
import { USERS_PERMISSIONS_CONTENT_TYPES } from './users-content-types';
import { AUTHENTICATED_ROLE, seedRoles } from './roles';
import { createRateLimiter } from './rate-limiter';
import { createUserAdmin, type UserAdmin } from './user-admin';
import { createUserAccounts, type UserAccounts } from './user-accounts';
import { createUsersGraphqlExtension } from './users-graphql';
import { createUsersRoutes } from './users-routes';

/**
 * Users & permissions: users and roles (content-types of their own), sign-up and sign-in on both
 * surfaces, `/api/users`, and API tokens (seeded from `config/admin`, managed live by `folio token`).
 */
const create = (services: Services): FolioModule => {
  const { config, store, documents, dataDir, secrets } = services;
  const jwt = createJwtService(secrets.jwtKey, config.usersPermissions.jwt.expiresIn);
  const tokens = createApiTokens(store, secrets.tokenSalt);
  const limiter = createRateLimiter(config.usersPermissions.rateLimit);
  let ready: { accounts: UserAccounts; admin: UserAdmin; control: TokenControl } | undefined;
  const started = () => {
    if (!ready) throw new Error('the users-permissions module is used before it started');
    return ready;
  };

  return {
    name: 'users-permissions',
    extension: createUsersGraphqlExtension({ documents, accounts: () => started().accounts, limiter }),
    async start() {
      const roles = await seedRoles(config, documents);
      await tokens.seed(config.admin.apiTokens);
      const unusable = await tokens.countUnusable();
      if (unusable > 0) {
        process.stderr.write(`folio: ${unusable} API token(s) were made with another API token salt and open nothing; revoke and recreate them\n`);
      }
      const defaultRoleId = roles.get(AUTHENTICATED_ROLE)!.documentId as string;
      ready = {
        accounts: createUserAccounts({ documents, jwt, defaultRoleId }),
        admin: createUserAdmin({ documents, defaultRoleId }),
        control: await openTokenControl(dataDir, tokens),
      };
    },
    async stop() {
      await ready?.control.close();
    },
    routes: ({ authenticator }) => createUsersRoutes({ services, accounts: started().accounts, admin: started().admin, authenticator, limiter }),
  };
};

export const createUsersPermissionsModule: FolioModuleFactory = Object.assign(create, { contentTypes: USERS_PERMISSIONS_CONTENT_TYPES });
