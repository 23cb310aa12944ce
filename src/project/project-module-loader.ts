import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { compileFunction } from 'node:vm';

/**
 * Loads a Strapi project's own files (routes, policies, middlewares and what they require) as
 * CommonJS modules with a `require` of Folio's making: `@strapi/strapi` and `@strapi/utils` are
 * Folio's stand-ins (strapi-packages, given by the caller), relative files load the same way, any
 * other package comes from the project's own node_modules. Node's module system is left untouched,
 * so nothing outside the project sees it.
 *
 * TypeScript files, and JavaScript written with `import`/`export`, are compiled to CommonJS by the
 * `typescript` package, Folio's or the project's; without either they stop start-up saying so.
 */

const SOURCE_EXTENSIONS = ['.js', '.cjs', '.ts', '.json'];
const ESM_SYNTAX = /Cannot use import statement|Unexpected token 'export'|import\.meta/;

export interface ProjectModuleLoader {
  /** the module's `module.exports`; throws naming the file when it cannot be loaded */
  load(file: string): unknown;
}

interface TypeScriptCompiler {
  transpileModule(source: string, options: { fileName: string; compilerOptions: Record<string, unknown> }): { outputText: string };
}

/** Folio's own `typescript`, else the project's (a Strapi TypeScript project has it in its node_modules). */
const loadTypeScript = (file: string): TypeScriptCompiler => {
  for (const from of [__filename, file]) {
    try {
      return createRequire(from)('typescript') as TypeScriptCompiler;
    } catch {
      // not installed there
    }
  }
  throw new Error(`${file}: TypeScript and ES module files need the "typescript" package to load; install it beside Folio or in the project, or build the project and point --schema at its compiled dist/src`);
};

const toCommonJs = (source: string, file: string): string =>
  // module 1 = CommonJS, target 9 = ES2022; esModuleInterop so `import x from 'cjs'` reads module.exports
  loadTypeScript(file).transpileModule(source, { fileName: file, compilerOptions: { module: 1, target: 9, esModuleInterop: true } }).outputText;

const resolveFile = (request: string, from: string): string | undefined => {
  const base = resolve(dirname(from), request);
  const candidates = [base, ...SOURCE_EXTENSIONS.map((extension) => base + extension), ...SOURCE_EXTENSIONS.map((extension) => resolve(base, `index${extension}`))];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
};

/** Read by shape: vm's errors may come from another realm (a test runner's), where `instanceof SyntaxError` fails. */
const isEsmSyntaxError = (error: unknown): boolean => {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return name === 'SyntaxError' && typeof message === 'string' && ESM_SYNTAX.test(message);
};

type ModuleFunction = (exports: unknown, require: (id: string) => unknown, module: { exports: unknown }, filename: string, dirname: string) => void;

/** `strapi`: what project files see as the global `strapi`; `packagesOf`: the stand-in packages a file gets, by name */
export const createProjectModuleLoader = (strapi: object, packagesOf: (file: string) => ReadonlyMap<string, object>): ProjectModuleLoader => {
  const cache = new Map<string, { exports: unknown }>();
  // Strapi makes `strapi` a global; here it is a scope around each project file (a file may still declare its own)
  const scope = [{ strapi }];
  const compile = (source: string, file: string): ModuleFunction =>
    compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file, contextExtensions: scope }) as unknown as ModuleFunction;

  const compileModule = (file: string): ModuleFunction => {
    const source = readFileSync(file, 'utf8');
    if (extname(file) === '.ts') return compile(toCommonJs(source, file), file);
    try {
      return compile(source, file);
    } catch (error) {
      if (isEsmSyntaxError(error)) return compile(toCommonJs(source, file), file);
      throw error;
    }
  };

  const load = (file: string): unknown => {
    const cached = cache.get(file);
    if (cached) return cached.exports;
    const module = { exports: {} as unknown };
    cache.set(file, module);
    if (extname(file) === '.json') {
      module.exports = JSON.parse(readFileSync(file, 'utf8'));
      return module.exports;
    }
    const packages = createRequire(file);
    let shims: ReadonlyMap<string, object> | undefined;
    const requireFrom = (id: string): unknown => {
      const shim = (shims ??= packagesOf(file)).get(id);
      if (shim) return shim;
      if (id.startsWith('.') || isAbsolute(id)) {
        const target = resolveFile(id, file);
        if (!target) throw new Error(`${file}: cannot find '${id}'`);
        return load(target);
      }
      return packages(id);
    };
    try {
      compileModule(file)(module.exports, requireFrom, module, file, dirname(file));
    } catch (error) {
      cache.delete(file);
      throw error;
    }
    return module.exports;
  };

  return { load };
};
