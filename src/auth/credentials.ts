import type { FolioConfig } from '../config/types';
import type { Store } from '../storage/types';
import type { AuthSecrets } from './auth-secrets';
import { createApiTokens, type ApiTokens } from './api-tokens';
import { createJwtService, type JwtService } from './jwt';

/** What signs and checks credentials, made once from the secrets: the JWT service and the API token store. */
export interface Credentials {
  jwt: JwtService;
  tokens: ApiTokens;
}

export const createCredentials = (secrets: AuthSecrets, config: FolioConfig, store: Store): Credentials => ({
  jwt: createJwtService(secrets.jwtKey, config.usersPermissions.jwt.expiresIn),
  tokens: createApiTokens(store, secrets.tokenSalt, { shared: config.database.client !== 'embedded' }),
});
