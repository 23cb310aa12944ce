import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ConfigProblem } from './config-error';
import type { EnvHelper } from './env-helper';
import { isPlainObject } from './config-schema';
import type { ConfigFileName } from './file-schemas';

export interface FoundConfigFile {
  /** as shown in messages: the config folder joined with the file name */
  file: string;
  /** an object, or for `middlewares` an array; its shape checks the rest */
  value: unknown;
}

function exportedValue(file: string): unknown {
  const loaded: unknown = require(resolve(file));
  // Compiled TypeScript and ES modules put the config under `default`, as Strapi's own loader accepts.
  const isModule =
    typeof loaded === 'object' &&
    loaded !== null &&
    ((loaded as { __esModule?: unknown }).__esModule === true || Object.prototype.toString.call(loaded) === '[object Module]');
  return isModule ? (loaded as { default?: unknown }).default : loaded;
}

function evaluate(file: string, env: EnvHelper): unknown {
  if (file.endsWith('.json')) return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const exported = exportedValue(file);
  return typeof exported === 'function' ? (exported as (helpers: { env: EnvHelper }) => unknown)({ env }) : exported;
}

/**
 * Reads `<name>.json` or `<name>.js` (object, or Strapi's `({ env }) => object`; an array for `middlewares`, as in
 * Strapi); undefined when neither exists.
 */
export function readConfigFile(configDir: string, name: ConfigFileName, env: EnvHelper, problems: ConfigProblem[]): FoundConfigFile | undefined {
  const present = ['.json', '.js'].map((extension) => join(configDir, name + extension)).filter((file) => existsSync(file));
  if (present.length > 1) {
    problems.push({ source: present.join(' and '), message: `both exist; keep one ${name} file` });
    return undefined;
  }
  const file = present[0];
  if (file === undefined) return undefined;
  let value: unknown;
  try {
    value = evaluate(file, env);
  } catch (error) {
    problems.push({ source: file, message: `could not be read: ${(error as Error).message}` });
    return undefined;
  }
  const kind = name === 'middlewares' || name === 'webhooks' ? 'array' : 'object';
  if (kind === 'array' ? !Array.isArray(value) : !isPlainObject(value)) {
    const what = file.endsWith('.json') ? `hold a JSON ${kind}` : `export an ${kind} or a function returning one (synchronously)`;
    problems.push({ source: file, message: `must ${what}` });
    return undefined;
  }
  return { file, value };
}
