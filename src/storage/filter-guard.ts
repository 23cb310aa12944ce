import { hasObjectPrototype } from './plain-object';
import { FILTER_OPERATORS, type Filter } from './types';

/** Thrown when a filter holds something no Folio query produces; never reaches an engine. */
export class UnsafeFilterError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${message} at ${path || '(root)'}`);
    this.name = 'UnsafeFilterError';
  }
}

const ALLOWED_OPERATORS: ReadonlySet<string> = new Set(FILTER_OPERATORS);
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
// a hostile filter could nest deeply enough to overflow the stack of any recursive walker downstream
const MAX_DEPTH = 64;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  return Object.getPrototypeOf(value) === null || hasObjectPrototype(value);
}

function assertSafeValue(value: unknown, path: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new UnsafeFilterError('filter nested too deeply', path);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new UnsafeFilterError('non-finite number', path);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => assertSafeValue(item, `${path}[${index}]`, depth + 1));
    return;
  }
  if (!isPlainObject(value)) throw new UnsafeFilterError(`value of type ${describe(value)} not allowed`, path);
  for (const key of Object.keys(value)) {
    const keyPath = path ? `${path}.${key}` : key;
    if (key.startsWith('$') && !ALLOWED_OPERATORS.has(key)) throw new UnsafeFilterError(`operator ${key} not allowed`, keyPath);
    if (key.split('.').some((segment) => FORBIDDEN_KEYS.has(segment))) {
      throw new UnsafeFilterError(`key ${key} not allowed`, keyPath);
    }
    assertSafeValue(value[key], keyPath, depth + 1);
  }
}

function describe(value: unknown): string {
  if (typeof value !== 'object' || value === null) return typeof value;
  return value.constructor?.name ?? 'object';
}

/**
 * Refuses any filter that is not plain JSON built from FILTER_OPERATORS: scripting operators
 * (`$where`, `$function`, `$expr`, `$accumulator`), prototype keys, class instances (RegExp, Date, Buffer),
 * functions and non-finite numbers. Both engines call it on every filter they receive.
 */
export function assertSafeFilter(filter: Filter): void {
  if (!isPlainObject(filter)) throw new UnsafeFilterError(`filter must be a plain object, got ${describe(filter)}`, '');
  assertSafeValue(filter, '', 0);
}
