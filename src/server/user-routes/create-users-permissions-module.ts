import type { FolioModule, FolioModuleFactory } from '../folio-module';
import type { Services } from '../../context';
import { openTokenControl, type TokenControl } from '../../auth/token-control';
import { USERS_PERMISSIONS_CONTENT_TYPES, userTypeOf } from '../../users/users-content-types';
import { applyConfiguredGrants, AUTHENTICATED_ROLE, PUBLIC_ROLE, ROLE_READ_PERMISSIONS, seedRoles, USER_WRITE_PERMISSIONS } from '../../users/roles';
import { openRoleGrants, type RoleGrants } from '../../users/role-grants';
import { createRoleAdmin, type RoleAdmin } from '../../users/role-admin';
import { createAccountDirectory } from '../../users/account-directory';
import type { AccountDirectory } from '../../auth/authenticate';
import { createRateLimiter } from '../../users/rate-limiter';
import { createUserAdmin, type UserAdmin } from '../../users/user-admin';
import { createUserAccounts, type UserAccounts } from '../../users/user-accounts';
import { createUsersGraphqlExtension } from '../../users/users-graphql';
import { createUsersRoutes } from './users-routes';
import { createEmailProvider } from '../../email/create-email-provider';
import { createAccountMails } from '../../users/account-mail';
import { createPasswordReset } from '../../users/password-reset';
import { createBackgroundTasks } from '../../common/background-tasks';
import { createEmailConfirmation } from '../../users/email-confirmation';
import { noMailWarning } from '../../users/no-mail-warning';

/**
 * Users & permissions: users and roles (content-types of their own), sign-up and sign-in on both
 * surfaces, password reset and e-mail confirmation (mailed through the `email` plugin's provider),
 * `/api/users`, and API tokens (seeded from `config/admin`, managed live by `folio token`).
 */
/** how long a stop waits for the mails being sent (the HTTP server gives requests 10 s before it) */
const MAIL_STOP_WAIT_MS = 5000;

const create = (services: Services): FolioModule => {
  const { config, documents, dataDir, store } = services;
  const { jwt, tokens } = services.credentials;
  const limiter = createRateLimiter(store, config.usersPermissions.rateLimit);
  const emailProvider = config.email ? createEmailProvider(config.email) : undefined;
  const mails = createAccountMails(config, emailProvider);
  // password reset mails, sent after the answer: a few at once, and a bound on those waiting, which many
  // addresses each within the rate limit could otherwise grow without end
  const afterAnswer = createBackgroundTasks((line) => process.stderr.write(`${line}\n`), { concurrency: 4, capacity: 1000 });
  const passwordReset = createPasswordReset({ documents, store, jwt, mail: mails.resetPassword, afterAnswer });
  const emailConfirmation = createEmailConfirmation({ documents, store, jwt, mail: mails.emailConfirmation });
  let ready: { accounts: UserAccounts; admin: UserAdmin; roleAdmin: RoleAdmin; grants: RoleGrants; directory: AccountDirectory; control: TokenControl } | undefined;
  const started = () => {
    if (!ready) throw new Error('the users-permissions module is used before it started');
    return ready;
  };

  return {
    name: 'users-permissions',
    permissions: [...Object.values(USER_WRITE_PERMISSIONS), ...Object.values(ROLE_READ_PERMISSIONS)],
    extension: createUsersGraphqlExtension({
      documents,
      accounts: () => started().accounts,
      admin: () => started().admin,
      roleAdmin: () => started().roleAdmin,
      passwordReset,
      emailConfirmation,
      limiter,
    }),
    async start({ permissions }) {
      const roles = await seedRoles(config, documents);
      await applyConfiguredGrants(config, documents, roles);
      await tokens.seed(config.admin.apiTokens);
      const unusable = await tokens.countUnusable();
      if (unusable > 0) {
        process.stderr.write(`folio: ${unusable} API token(s) were made with another API token salt and open nothing; revoke and recreate them\n`);
      }
      const mailless = noMailWarning(config);
      if (mailless) process.stderr.write(`${mailless}\n`);
      const defaultRoleId = roles.rows.get(AUTHENTICATED_ROLE)!.documentId as string;
      const userType = userTypeOf(services.models);
      const control = await openTokenControl(dataDir, tokens);
      const grants = await openRoleGrants(documents, { shared: config.database.client !== 'embedded', othersCommitted: store.othersCommitted });
      ready = {
        accounts: createUserAccounts({ documents, jwt, defaultRoleId, ...(config.usersPermissions.emailConfirmation ? { confirmation: emailConfirmation } : {}) }),
        admin: createUserAdmin({ documents, defaultRoleId, userType }),
        roleAdmin: createRoleAdmin({ documents, grants, config, known: permissions, userType, publicRoleId: roles.rows.get(PUBLIC_ROLE)!.documentId as string }),
        grants,
        directory: createAccountDirectory(grants, store, { confirmation: config.usersPermissions.emailConfirmation }),
        control,
      };
    },
    async stop() {
      // the mails being sent use the provider and the store, both closed after this
      await afterAnswer.stop(MAIL_STOP_WAIT_MS);
      emailProvider?.close();
      ready?.grants.close();
      await ready?.control.close();
    },
    accounts: () => started().directory,
    routes: ({ authenticator, schema, rest }) =>
      createUsersRoutes({ services, accounts: started().accounts, admin: started().admin, roleAdmin: started().roleAdmin, passwordReset, emailConfirmation, authenticator, limiter, schema, rest }),
  };
};

export const createUsersPermissionsModule: FolioModuleFactory = Object.assign(create, { contentTypes: USERS_PERMISSIONS_CONTENT_TYPES });
