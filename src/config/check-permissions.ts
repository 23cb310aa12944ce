import { ConfigError, type ConfigProblem } from './config-error';
import { suggestKey } from './suggest-key';
import type { FolioConfig } from './types';

/**
 * The permissions roles and API tokens are given must be ones something checks: a typo
 * (`api::artcle.article.find`) would otherwise grant nothing, silently. `known` is every scope
 * the served schema's fields and the REST-only routes require. An `api::` permission must be
 * known (it names the project's own types); a `plugin::` one may name a Strapi plugin Folio does
 * not serve (`plugin::users-permissions.auth.connect`), unless it is a near miss of a known one.
 */

const problemOf = (permission: string, known: readonly string[], source: string, path: string): ConfigProblem | undefined => {
  if (known.includes(permission)) return undefined;
  const meant = suggestKey(permission, known);
  if (!permission.startsWith('api::') && !meant) return undefined;
  const hint = meant ? ` (did you mean "${meant}"?)` : `; the project's permissions are ${known.filter((candidate) => candidate.startsWith('api::')).slice(0, 3).join(', ')}, …`;
  return { source, path, message: `"${permission}" is not a permission anything here requires${hint}` };
};

export const checkPermissions = (config: FolioConfig, known: ReadonlySet<string>): void => {
  const list = [...known].sort();
  const plugins = config.sources?.plugins ?? 'config/plugins';
  const admin = config.sources?.admin ?? 'config/admin';
  const problems: ConfigProblem[] = [];
  for (const [type, role] of Object.entries(config.usersPermissions.roles)) {
    role.permissions.forEach((permission, index) => {
      const problem = problemOf(permission, list, plugins, `users-permissions.config.roles.${type}.permissions[${index}]`);
      if (problem) problems.push(problem);
    });
  }
  config.admin.apiTokens.forEach((token, tokenIndex) => {
    (token.permissions ?? []).forEach((permission, index) => {
      const problem = problemOf(permission, list, admin, `apiTokens[${tokenIndex}].permissions[${index}]`);
      if (problem) problems.push(problem);
    });
  });
  if (problems.length > 0) throw new ConfigError(problems);
};
