import type { ConfigProblem } from './config-error';
import type { ConfigFile } from './file-schemas';
import type { FolioConfig } from './types';

type AdminFile = ConfigFile<'admin'>;

/**
 * API tokens seeded from config: each must be usable as declared and identifiable by name and key alone.
 * The salt of their keyed hashes comes from `apiToken.salt`, else `API_TOKEN_SALT` (as in Strapi).
 */
export function resolveAdmin(fromFile: AdminFile | undefined, source: string, saltFromEnv: string | undefined, problems: ConfigProblem[]): FolioConfig['admin'] {
  const apiTokens = fromFile?.apiTokens ?? [];
  const report = (path: string, message: string) => problems.push({ source, path, message });
  apiTokens.forEach((token, index) => {
    const path = `apiTokens[${index}]`;
    if (token.type === 'custom' && !token.permissions?.length) {
      report(`${path}.permissions`, 'must list at least one permission for a custom token');
    }
    if (token.type !== 'custom' && token.permissions !== undefined) {
      report(`${path}.permissions`, `only apply to custom tokens (this one is ${token.type})`);
    }
    const sameName = apiTokens.findIndex((other) => other.name === token.name);
    if (sameName < index) report(`${path}.name`, `"${token.name}" is already the name of apiTokens[${sameName}]`);
    const sameKey = apiTokens.findIndex((other) => other.accessKey === token.accessKey);
    if (sameKey < index) report(`${path}.accessKey`, `is the same as apiTokens[${sameKey}].accessKey`);
  });
  const salt = fromFile?.apiToken?.salt ?? saltFromEnv;
  return salt === undefined ? { apiTokens } : { apiTokens, apiTokenSalt: salt };
}
