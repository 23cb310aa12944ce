import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadModels } from '../../src/models/load-models';
import { ModelError } from '../../src/models/validate-models';

/** Writes files (JSON values, or raw text for broken files) under a fresh temp schema folder. */
export function writeSchemaDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-models-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

export function contentTypePath(name: string): string {
  return `api/${name}/content-types/${name}/schema.json`;
}

export function contentType(singularName: string, pluralName: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    kind: 'collectionType',
    collectionName: pluralName.replace(/-/g, '_'),
    info: { singularName, pluralName, displayName: singularName },
    options: { draftAndPublish: false },
    attributes,
    ...extra,
  };
}

export function component(name: string, attributes: Record<string, unknown>) {
  return { collectionName: `components_${name.replace(/-/g, '_')}`, info: { displayName: name }, attributes };
}

/** Schema files with one content-type `post` holding the given attributes, plus any other files. */
export function postWith(attributes: Record<string, unknown>, others: Record<string, unknown> = {}): Record<string, unknown> {
  return { [contentTypePath('post')]: contentType('post', 'posts', attributes), ...others };
}

export function loadError(files: Record<string, unknown>): { dir: string; error: ModelError } {
  const dir = writeSchemaDir(files);
  try {
    loadModels(dir);
  } catch (error) {
    if (error instanceof ModelError) return { dir, error };
    throw error;
  }
  throw new Error('expected loadModels to throw a ModelError');
}

/** The one line of the error about `file` (and `attribute`, when given) that matches `pattern`. */
export function expectProblem(files: Record<string, unknown>, file: string, attribute: string | undefined, pattern: RegExp): string {
  const { dir, error } = loadError(files);
  const lines = error.message.split('\n');
  const line = lines.find(
    (candidate) =>
      candidate.startsWith(`${join(dir, file)}: `) && (attribute === undefined || candidate.includes(`attribute "${attribute}"`)) && pattern.test(candidate),
  );
  if (line === undefined) throw new Error(`no line for ${file} ${attribute ?? ''} matching ${pattern} in:\n${error.message}`);
  return line;
}
