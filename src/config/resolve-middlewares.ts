import type { ConfigProblem } from './config-error';
import { defaultCors } from './defaults';
import { validate } from './config-schema';
import { corsConfigSchema, type ConfigFile } from './file-schemas';
import { defaultSecurity, resolveSecurity } from './resolve-security';
import type { CorsConfig, FolioConfig } from './types';
import { joinPath } from './config-schema';

type MiddlewaresFile = ConfigFile<'middlewares'>;
type Report = (path: string, message: string) => void;

const CORS = 'strapi::cors';

/** Strapi's other built-in middlewares: listed in every Strapi project, and Folio's HTTP front needs none of them. */
const WITHOUT_EFFECT = new Set([
  'strapi::errors',
  'strapi::poweredBy',
  'strapi::logger',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
  'strapi::compression',
  'strapi::ip',
  'strapi::responseTime',
]);

const NO_CUSTOM = 'Folio does not run custom Koa middlewares';

function resolveCors(config: Record<string, unknown>, path: string, report: Report): CorsConfig {
  const { value, issues } = validate(corsConfigSchema, config);
  for (const issue of issues) report(joinPath(path, issue.path), issue.message);
  // Both are Strapi keys that change nothing here (see corsConfigSchema); only the rest reaches the HTTP front.
  const { enabled, keepHeadersOnError, ...settings } = value ?? {};
  if (enabled === false) report(`${path}.enabled`, `is ignored by Strapi 5 and would leave CORS on; to turn CORS off, remove "${CORS}" from the array`);
  return { ...defaultCors(), ...settings };
}

type Middlewares = Pick<FolioConfig, 'cors' | 'security'>;

/** The middlewares Folio runs: the setting each gives, resolved from its `config` (Strapi's defaults under it). */
const HONOURED: Record<string, { setting: keyof Middlewares; resolve: (config: Record<string, unknown>, path: string, report: Report) => Middlewares[keyof Middlewares] }> = {
  [CORS]: { setting: 'cors', resolve: resolveCors },
  'strapi::security': { setting: 'security', resolve: resolveSecurity },
};

/**
 * What a Strapi middlewares array asks of the HTTP front: Strapi's CORS and security headers when there is no
 * such file, and each of them off when the array leaves it out (Strapi's documented way to turn one off).
 */
export function resolveMiddlewares(file: MiddlewaresFile | undefined, source: string, problems: ConfigProblem[]): Middlewares {
  if (file === undefined) return { cors: defaultCors(), security: defaultSecurity() };
  const report: Report = (path, message) => problems.push({ source, path, message });
  const resolved: Middlewares = { cors: false, security: false };
  const listedAt = new Map<string, string>();
  for (const [index, entry] of file.entries()) {
    const at = `[${index}]`;
    const { name, config, resolve }: { name?: string; config?: Record<string, unknown>; resolve?: string } = typeof entry === 'string' ? { name: entry } : entry;
    if (resolve !== undefined) {
      report(`${at}.resolve`, `loads a custom middleware; ${NO_CUSTOM}`);
    } else if (name === undefined) {
      report(`${at}.name`, 'is required');
    } else if (!Object.hasOwn(HONOURED, name)) {
      if (!WITHOUT_EFFECT.has(name)) report(at, `"${name}" is not one of Strapi's built-in middlewares; ${NO_CUSTOM}`);
    } else if (listedAt.has(name)) {
      report(at, `lists "${name}" again (already at ${listedAt.get(name)}); keep one`);
    } else {
      listedAt.set(name, at);
      const { setting, resolve: resolveSetting } = HONOURED[name];
      Object.assign(resolved, { [setting]: resolveSetting(config ?? {}, `${at}.config`, report) });
    }
  }
  return resolved;
}
