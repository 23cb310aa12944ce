import type { ConfigProblem } from './config-error';
import { defaultCors } from './defaults';
import { corsConfigShape, type middlewaresFileShape } from './file-shapes';
import type { ShapeIssue, ShapeOutput } from './shape';
import type { CorsConfig } from './types';

type MiddlewaresFile = ShapeOutput<typeof middlewaresFileShape>;
type Report = (path: string, message: string) => void;

const CORS = 'strapi::cors';

/** Strapi's other built-in middlewares: listed in every Strapi project, and Folio's HTTP front needs none of them. */
const WITHOUT_EFFECT = new Set([
  'strapi::errors',
  'strapi::security',
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
  const issues: ShapeIssue[] = [];
  // Both are Strapi keys that change nothing here (see corsConfigShape); only the rest reaches the HTTP front.
  const { enabled, keepHeadersOnError, ...settings } = corsConfigShape(config, path, issues) ?? {};
  for (const issue of issues) report(issue.path, issue.message);
  if (enabled === false) report(`${path}.enabled`, `is ignored by Strapi 5 and would leave CORS on; to turn CORS off, remove "${CORS}" from the array`);
  return { ...defaultCors(), ...settings };
}

/**
 * The CORS that a Strapi middlewares array asks for: Strapi's defaults when there is no such file, and
 * none when the array leaves out `strapi::cors` (Strapi's documented way to turn CORS off).
 */
export function resolveMiddlewares(file: MiddlewaresFile | undefined, source: string, problems: ConfigProblem[]): CorsConfig | false {
  if (file === undefined) return defaultCors();
  const report: Report = (path, message) => problems.push({ source, path, message });
  let cors: CorsConfig | false = false;
  let corsAt: string | undefined;
  for (const [index, entry] of file.entries()) {
    const at = `[${index}]`;
    const { name, config, resolve }: { name?: string; config?: Record<string, unknown>; resolve?: string } = typeof entry === 'string' ? { name: entry } : entry;
    if (resolve !== undefined) {
      report(`${at}.resolve`, `loads a custom middleware; ${NO_CUSTOM}`);
    } else if (name === undefined) {
      report(`${at}.name`, 'is required');
    } else if (name !== CORS) {
      if (!WITHOUT_EFFECT.has(name)) report(at, `"${name}" is not one of Strapi's built-in middlewares; ${NO_CUSTOM}`);
    } else if (corsAt !== undefined) {
      report(at, `lists "${CORS}" again (already at ${corsAt}); keep one`);
    } else {
      corsAt = at;
      cors = resolveCors(config ?? {}, `${at}.config`, report);
    }
  }
  return cors;
}
