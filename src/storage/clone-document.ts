import { hasObjectPrototype } from './plain-object';
import type { StoredDocument, StoredValue } from './types';

function cloneValue(value: unknown, path: string): StoredValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot store non-finite number at ${path}`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item, index) => cloneValue(item === undefined ? null : item, `${path}.${index}`));
  if (typeof value === 'object' && hasObjectPrototype(value)) {
    return cloneObject(value as Record<string, unknown>, path);
  }
  throw new TypeError(`cannot store ${typeof value === 'object' ? value.constructor?.name : typeof value} at ${path}`);
}

/**
 * `copy[key] = value`, except that a `__proto__` key (JSON.parse makes it an own field, and a JSON
 * attribute may hold one) stays a field: assigning it would replace the copy's prototype.
 */
export const setField = (target: Record<string, unknown>, key: string, value: unknown) => {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
};

// keys holding undefined are dropped, as JSON (and the MongoDB engine's ignoreUndefined) does
function cloneObject(source: Record<string, unknown>, path: string): StoredDocument {
  const copy: StoredDocument = {};
  for (const key of Object.keys(source)) {
    const keyPath = path ? `${path}.${key}` : key;
    if (source[key] !== undefined) setField(copy, key, cloneValue(source[key], keyPath));
  }
  return copy;
}

/**
 * A deep copy that accepts exactly the JSON a MongoDB round trip gives back unchanged, so that both engines
 * store the same thing: class instances (Date, Buffer, Map) and non-finite numbers are refused.
 */
export function cloneDocument(document: StoredDocument): StoredDocument {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new TypeError('a document must be a plain object');
  }
  return cloneObject(document, '');
}
