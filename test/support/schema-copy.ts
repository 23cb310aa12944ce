import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EXAMPLE_SCHEMA } from './test-server';

/** A throwaway copy of the example models, for a test that needs them slightly different. */
export interface SchemaCopy {
  schemaDir: string;
  /** changes the content type `api::<name>.<name>`'s schema.json in place */
  editContentType(name: string, edit: (model: { attributes: Record<string, Record<string, unknown>> }) => void): void;
  /** writes a file at `path` inside the schema folder (a project's code), answering its full path */
  write(path: string, content: string): string;
  /** adds (or replaces) the component `<category>.<name>` with these attributes */
  writeComponent(uid: string, attributes: Record<string, Record<string, unknown>>): void;
  remove(): void;
}

export const copyExampleSchema = (): SchemaCopy => {
  const root = mkdtempSync(join(tmpdir(), 'folio-schema-'));
  const schemaDir = join(root, 'schema');
  cpSync(EXAMPLE_SCHEMA, schemaDir, { recursive: true });
  return {
    schemaDir,
    editContentType(name, edit) {
      const file = join(schemaDir, 'api', name, 'content-types', name, 'schema.json');
      const model = JSON.parse(readFileSync(file, 'utf8')) as { attributes: Record<string, Record<string, unknown>> };
      edit(model);
      writeFileSync(file, JSON.stringify(model));
    },
    write(path, content) {
      const file = join(schemaDir, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    },
    writeComponent(uid, attributes) {
      const [category, name] = uid.split('.');
      mkdirSync(join(schemaDir, 'components', category), { recursive: true });
      const model = { collectionName: `components_${category}_${name}`, info: { displayName: name }, options: {}, attributes };
      writeFileSync(join(schemaDir, 'components', category, `${name}.json`), JSON.stringify(model));
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
};
