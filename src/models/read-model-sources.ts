import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ModelError } from './model-error';

export type ModelSource =
  | { source: 'content-type'; file: string; apiName: string; folderName: string; text: string }
  | { source: 'component'; file: string; category: string; name: string; text: string }
  | { source: 'plugin-extension'; file: string; plugin: string; name: string; text: string };

function subfolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * Finds model files in Strapi's layout. Only `api/<api>/content-types/<name>/schema.json` and
 * `components/<category>/<name>.json` are read, so a Strapi project's `src/` (with controllers, routes,
 * lifecycles, extensions...) loads as is.
 */
export function readModelSources(schemaDir: string): ModelSource[] {
  if (!existsSync(schemaDir) || !statSync(schemaDir).isDirectory()) {
    throw new ModelError([{ file: schemaDir, message: 'schema folder does not exist' }]);
  }
  const sources: ModelSource[] = [];
  const apiDir = join(schemaDir, 'api');
  for (const apiName of subfolders(apiDir)) {
    const typesDir = join(apiDir, apiName, 'content-types');
    for (const folderName of subfolders(typesDir)) {
      const file = join(typesDir, folderName, 'schema.json');
      if (existsSync(file)) {
        sources.push({ source: 'content-type', file, apiName, folderName, text: readFileSync(file, 'utf8') });
      }
    }
  }
  const componentsDir = join(schemaDir, 'components');
  for (const category of subfolders(componentsDir)) {
    const categoryDir = join(componentsDir, category);
    const files = readdirSync(categoryDir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
    for (const fileName of files) {
      const file = join(categoryDir, fileName);
      sources.push({ source: 'component', file, category, name: basename(fileName, '.json'), text: readFileSync(file, 'utf8') });
    }
  }
  // Strapi's way to add attributes to a plugin's type: extensions/<plugin>/content-types/<name>/schema.json
  const extensionsDir = join(schemaDir, 'extensions');
  for (const plugin of subfolders(extensionsDir)) {
    const typesDir = join(extensionsDir, plugin, 'content-types');
    for (const name of subfolders(typesDir)) {
      const file = join(typesDir, name, 'schema.json');
      if (existsSync(file)) sources.push({ source: 'plugin-extension', file, plugin, name, text: readFileSync(file, 'utf8') });
    }
  }
  return sources;
}
