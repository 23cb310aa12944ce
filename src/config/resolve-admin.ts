import type { ConfigFile } from './file-schemas';
import type { FolioConfig } from './types';

type AdminFile = ConfigFile<'admin'>;

/**
 * API tokens seeded from config (file-schemas checked each is usable as declared and told apart by name and
 * key). The salt of their keyed hashes comes from `apiToken.salt`, else `API_TOKEN_SALT` (as in Strapi).
 */
export function resolveAdmin(fromFile: AdminFile | undefined, saltFromEnv: string | undefined): FolioConfig['admin'] {
  const apiTokens = fromFile?.apiTokens ?? [];
  const salt = fromFile?.apiToken?.salt ?? saltFromEnv;
  return salt === undefined ? { apiTokens } : { apiTokens, apiTokenSalt: salt };
}
