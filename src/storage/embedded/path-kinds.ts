import type { StoredDocument, StoredValue } from '../types';

/**
 * The kinds of value each path has held in a collection (paths through objects only, never into arrays).
 * A path whose values were only ever scalars of one type, under parents that were never arrays, can be
 * queried and sorted in SQL on `json_extract`; anything else takes an exact but slower path.
 */
export const KIND = { null: 1, number: 2, string: 4, boolean: 8, object: 16, array: 32 } as const;

const SCALAR_KINDS = KIND.null | KIND.number | KIND.string | KIND.boolean;
// deeper paths are rare (components in components); they take the slower path
const MAX_DEPTH = 4;

export function kindOf(value: StoredValue): number {
  if (value === null) return KIND.null;
  if (Array.isArray(value)) return KIND.array;
  switch (typeof value) {
    case 'number':
      return KIND.number;
    case 'string':
      return KIND.string;
    case 'boolean':
      return KIND.boolean;
    default:
      return KIND.object;
  }
}

/** Adds the kinds of `document`'s paths to `into`; returns the paths that gained a kind, with their kinds before. */
export function collectKinds(document: StoredDocument, into: Map<string, number>): Array<{ path: string; before: number }> {
  const changed: Array<{ path: string; before: number }> = [];
  const walk = (object: StoredDocument, prefix: string, depth: number): void => {
    for (const key of Object.keys(object)) {
      const path = prefix + key;
      const value = object[key];
      const kind = kindOf(value);
      const before = into.get(path) ?? 0;
      if ((before & kind) === 0) {
        into.set(path, before | kind);
        changed.push({ path, before });
      }
      if (kind === KIND.object && depth < MAX_DEPTH) walk(value as StoredDocument, `${path}.`, depth + 1);
    }
  };
  walk(document, '', 1);
  return changed;
}

export interface PathKinds {
  /** the kinds `path` has held; 0 when never seen */
  of(path: string): number;
}

/** Whether `path` only ever held scalars (or nothing) and none of its parents ever held an array. */
export function isPlainPath(kinds: PathKinds, path: string): boolean {
  const segments = path.split('.');
  if (segments.length > MAX_DEPTH) return false;
  for (let i = 1; i < segments.length; i++) if (kinds.of(segments.slice(0, i).join('.')) & KIND.array) return false;
  return (kinds.of(path) & ~SCALAR_KINDS) === 0;
}

/** Whether SQL's order on `path` is MongoDB's: a plain path holding at most one scalar type besides null. */
export function sortsInSql(kinds: PathKinds, path: string): boolean {
  if (!isPlainPath(kinds, path)) return false;
  const types = kinds.of(path) & ~KIND.null;
  return types === 0 || types === KIND.number || types === KIND.string || types === KIND.boolean;
}
