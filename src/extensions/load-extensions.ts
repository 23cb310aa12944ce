import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { GraphQLError, parse } from 'graphql';
import type { Models } from '../models/types';
import type { Extension, ExtensionFactory } from './types';
import { checkExtension } from './extension-schema';
import { syntaxErrorLine } from '../common/syntax-error-line';

/**
 * Hand-written extensions from `<schema>/extensions/`: every `*.graphql` file is SDL, every
 * `*.js` (or `.cjs`) file exports an extension object or a factory `({ models }) => extension`.
 * A mistake stops start-up with the file (and line) named: SDL that does not parse, a module that
 * does not load, an export Folio does not know (`typedefs`), a file Folio cannot load (`.ts`).
 */

const SDL_FILES = new Set(['.graphql', '.gql']);
const MODULE_FILES = new Set(['.js', '.cjs']);
/** files an extensions folder may hold beside them */
const IGNORED = new Set(['.md', '.txt', '.json', '.map']);

const located = (path: string, error: unknown): Error => {
  if (error instanceof GraphQLError && error.locations?.[0]) {
    const { line, column } = error.locations[0];
    return new Error(`${path}:${line}:${column}: ${error.message}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  const where = error instanceof SyntaxError ? syntaxErrorLine(path) : undefined;
  return new Error(`${where ?? path}: ${message}`);
};


const loadSdl = (path: string): Extension => {
  const typeDefs = readFileSync(path, 'utf8');
  try {
    parse(typeDefs);
  } catch (error) {
    throw located(path, error);
  }
  return { typeDefs };
};

const loadModule = (path: string, models: Models): Extension => {
  let exported: Extension | ExtensionFactory | { default: Extension | ExtensionFactory };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    exported = require(path) as typeof exported;
  } catch (error) {
    throw located(path, error);
  }
  const value = 'default' in exported && exported.default ? exported.default : (exported as Extension | ExtensionFactory);
  if (typeof value !== 'function') return checkExtension(path, value);
  let made: unknown;
  try {
    made = value({ models });
  } catch (error) {
    throw new Error(`${path}: the extension factory failed: ${(error as Error).message}`);
  }
  return checkExtension(path, made);
};

export const loadExtensions = (schemaDir: string, models: Models): Extension[] => {
  const directory = resolve(schemaDir, 'extensions');
  if (!existsSync(directory)) return [];
  // hidden files (Strapi's generated `.gitkeep`, editors' files) are nobody's extensions
  const files = readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
  for (const file of files) {
    const type = extname(file);
    if (!SDL_FILES.has(type) && !MODULE_FILES.has(type) && !IGNORED.has(type)) {
      throw new Error(`${join(directory, file)}: extensions are .graphql SDL or CommonJS .js modules; compile ${type || 'this file'} to .js, or move it out of extensions/`);
    }
  }
  const sdl = files.filter((file) => SDL_FILES.has(extname(file))).map((file) => loadSdl(join(directory, file)));
  const modules = files.filter((file) => MODULE_FILES.has(extname(file))).map((file) => loadModule(join(directory, file), models));
  return [...sdl, ...modules];
};
