import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Models } from '../models/types';
import type { Extension, ExtensionFactory } from './types';

/**
 * Hand-written extensions from `<schema>/extensions/`: every `*.graphql` file is SDL, every
 * `*.js` file exports an extension object or a factory `({ models }) => extension`.
 */
export const loadExtensions = (schemaDir: string, models: Models): Extension[] => {
  const directory = resolve(schemaDir, 'extensions');
  if (!existsSync(directory)) return [];
  const files = readdirSync(directory).sort();
  const sdl: Extension[] = files
    .filter((file) => file.endsWith('.graphql'))
    .map((file) => ({ typeDefs: readFileSync(join(directory, file), 'utf8') }));
  const modules: Extension[] = files
    .filter((file) => file.endsWith('.js'))
    .map((file) => {
      const path = join(directory, file);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exported = require(path) as Extension | ExtensionFactory | { default: Extension | ExtensionFactory };
      const value = 'default' in exported && exported.default ? exported.default : (exported as Extension | ExtensionFactory);
      try {
        return typeof value === 'function' ? value({ models }) : value;
      } catch (error) {
        throw new Error(`${path}: the extension factory failed: ${(error as Error).message}`);
      }
    });
  return [...sdl, ...modules];
};
