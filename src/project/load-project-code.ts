import { existsSync, readdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { syntaxErrorLine } from '../common/syntax-error-line';
import { createProjectModuleLoader } from './project-module-loader';
import { CoreModuleDefinition, strapiPackages } from './strapi-packages';
import { coreRouterFactory } from './core-router';
import type { Models } from '../models/types';
import { ProjectCodeError, type ProjectCodeProblem } from './project-code-error';
import { lateBound, type LateBound } from '../common/late-bound';

/**
 * Reads a Strapi project's code once at start: `api/<api>/routes`, `policies`, `middlewares`,
 * `controllers`, `services`, and the global `policies/` and `middlewares/` folders. Nothing is run
 * here but the files' top level (where `createCoreRouter` reads the models); project-routes
 * resolves what the routes name.
 *
 * Controllers made by `createCoreController(uid, custom?)` are read (their custom actions run on
 * the server, with the ctx and strapi subsets); services are not served: Strapi's generated
 * `createCoreService(uid)` loads silently, a custom one, or a controller of another shape, stops
 * start-up naming its file.
 */

export interface LoadedFile {
  file: string;
  value: unknown;
}

export interface LoadedController {
  file: string;
  /** the content-type whose core actions it has */
  uid: string;
  /** its own actions and overrides (`createCoreController`'s second argument); undefined for Strapi's default */
  custom: unknown;
}

export interface ProjectCode {
  /** the router files of each API that has a `routes` folder, in name order */
  routers: Map<string, LoadedFile[]>;
  /** `api::<api>.<name>` and `global::<name>` */
  policies: Map<string, LoadedFile>;
  middlewares: Map<string, LoadedFile>;
  /** by controller uid (`api::<api>.<file name>`) */
  controllers: Map<string, LoadedController>;
  /** the files' global `strapi`, bound to Folio's once it is assembled */
  strapi: LateBound;
}

const CODE_EXTENSIONS = new Set(['.js', '.cjs', '.ts']);

const codeFiles = (directory: string): string[] =>
  existsSync(directory)
    ? readdirSync(directory, { withFileTypes: true })
        .filter((entry) => entry.isFile() && CODE_EXTENSIONS.has(extname(entry.name)) && !entry.name.endsWith('.d.ts'))
        .map((entry) => join(directory, entry.name))
        .sort()
    : [];

const nameOf = (file: string) => basename(file, extname(file));

/** `module.exports`, or the default export of a module compiled from `export default`. */
const exportedValue = (exported: unknown): unknown =>
  typeof exported === 'object' && exported !== null && 'default' in exported && ('__esModule' in exported || Object.keys(exported).length === 1)
    ? (exported as { default: unknown }).default
    : exported;

/** `warn`: what core routers note, which does not stop start-up */
export const loadProjectCode = (schemaDir: string, models: Models, warn: (line: string) => void): ProjectCode => {
  const strapi = lateBound('strapi', 'not available while Folio loads the project files: use it inside a policy or a middleware');
  const coreRouters = coreRouterFactory(models, warn);
  const loader = createProjectModuleLoader(strapi.value, (file) => strapiPackages(coreRouters(file)));
  const problems: ProjectCodeProblem[] = [];
  const code: ProjectCode = { routers: new Map(), policies: new Map(), middlewares: new Map(), controllers: new Map(), strapi };

  const load = (file: string): LoadedFile | undefined => {
    try {
      return { file, value: exportedValue(loader.load(file)) };
    } catch (error) {
      // by shape, not instanceof: errors of compiled code may come from another realm
      const { message: given, name } = (error ?? {}) as { message?: unknown; name?: unknown };
      const message = typeof given === 'string' ? given : String(error);
      // a JavaScript file's syntax error is named with its line, as Node names it (TypeScript's are compiled first)
      const where = name === 'SyntaxError' && /\.c?js$/.test(file) ? syntaxErrorLine(file) : undefined;
      problems.push({ file: where ?? file, message: message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message });
      return undefined;
    }
  };

  const loadInto = (target: Map<string, LoadedFile>, directory: string, prefix: string) => {
    for (const file of codeFiles(directory)) {
      const loaded = load(file);
      if (loaded) target.set(`${prefix}${nameOf(file)}`, loaded);
    }
  };

  const loadController = (file: string, apiName: string) => {
    const loaded = load(file);
    if (!loaded) return;
    const { value } = loaded;
    if (value instanceof CoreModuleDefinition && value.kind === 'controller') code.controllers.set(`api::${apiName}.${nameOf(file)}`, { file, uid: value.uid, custom: value.custom });
    else problems.push({ file, message: 'a controller Folio serves is made by factories.createCoreController(uid, actions?): one of another shape has no content-type whose core actions it could run' });
  };

  const checkService = (file: string) => {
    const loaded = load(file);
    if (!loaded) return;
    const { value } = loaded;
    if (!(value instanceof CoreModuleDefinition) || value.kind !== 'service') {
      problems.push({ file, message: "a custom service is not served by Folio: only Strapi's default factories.createCoreService(uid) loads; read and write with strapi.documents(uid) in controllers, policies and middlewares" });
    } else if (value.custom !== undefined) {
      problems.push({ file, message: `the service customizes ${value.uid} (a second argument to createCoreService): custom services are not served by Folio; keep the default and read and write with strapi.documents(uid)` });
    }
  };

  const apiDir = join(schemaDir, 'api');
  const apis = existsSync(apiDir) ? readdirSync(apiDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort() : [];
  for (const apiName of apis) {
    const root = join(apiDir, apiName);
    for (const file of codeFiles(join(root, 'controllers'))) loadController(file, apiName);
    for (const file of codeFiles(join(root, 'services'))) checkService(file);
    loadInto(code.policies, join(root, 'policies'), `api::${apiName}.`);
    loadInto(code.middlewares, join(root, 'middlewares'), `api::${apiName}.`);
    if (existsSync(join(root, 'routes'))) code.routers.set(apiName, codeFiles(join(root, 'routes')).flatMap((file) => load(file) ?? []));
  }
  loadInto(code.policies, join(schemaDir, 'policies'), 'global::');
  loadInto(code.middlewares, join(schemaDir, 'middlewares'), 'global::');
  if (problems.length > 0) throw new ProjectCodeError(problems);
  return code;
};
