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

/** where a value sits in the filter: keys and array positions, from the top */
type Path = Array<string | number>;

/** `a.b[2].c`: built only for an error, not for every value a filter holds ($in lists of hundreds) */
const pathText = (path: Path): string =>
  path.reduce<string>((text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : text ? `${text}.${segment}` : segment), '');

/** `path`: the value's place, pushed to and popped as the walk goes */
function assertSafeValue(value: unknown, path: Path, depth: number): void {
  if (depth > MAX_DEPTH) throw new UnsafeFilterError('filter nested too deeply', pathText(path));
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new UnsafeFilterError('non-finite number', pathText(path));
    return;
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      assertSafeValue(value[index], path, depth + 1);
      path.pop();
    }
    return;
  }
  if (!isPlainObject(value)) throw new UnsafeFilterError(`value of type ${describe(value)} not allowed`, pathText(path));
  for (const key of Object.keys(value)) {
    path.push(key);
    if (key.startsWith('$') && !ALLOWED_OPERATORS.has(key)) throw new UnsafeFilterError(`operator ${key} not allowed`, pathText(path));
    if (FORBIDDEN_KEYS.has(key) || (key.includes('.') && key.split('.').some((segment) => FORBIDDEN_KEYS.has(segment)))) throw new UnsafeFilterError(`key ${key} not allowed`, pathText(path));
    assertSafeValue(value[key], path, depth + 1);
    path.pop();
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
  assertSafeValue(filter, [], 0);
}
