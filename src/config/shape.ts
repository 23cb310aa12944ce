import { suggestKey } from './suggest-key';

export interface ShapeIssue {
  path: string;
  message: string;
}

/**
 * A compact description of an allowed config value: it returns the value typed, or records why it is wrong and
 * returns undefined. Absent keys are simply left out, so defaults are applied by spreading afterwards.
 */
export type Shape<T> = (value: unknown, path: string, issues: ShapeIssue[]) => T | undefined;
export type ShapeOutput<S> = S extends Shape<infer T> ? T : never;
type Fields = Record<string, Shape<unknown>>;

function got(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : 'an array';
  // NaN is what `env.int` gives for a non-numeric variable; JSON would print it as null.
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? typeof value;
}

function mismatch(issues: ShapeIssue[], path: string, expected: string, value: unknown, secret = false): undefined {
  issues.push({ path, message: secret ? `must be ${expected}` : `must be ${expected}, got ${got(value)}` });
  return undefined;
}

function check<T>(accept: (value: unknown) => value is T, expected: string, secret = false): Shape<T> {
  return (value, path, issues) => (accept(value) ? value : mismatch(issues, path, expected, value, secret));
}

/** Tag-based rather than prototype-based, so objects from another realm count and Promises, Maps or Dates do not. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return Object.prototype.toString.call(value) === '[object Object]';
}

export const boolean = check((value): value is boolean => typeof value === 'boolean', 'a boolean');

export const anyObject = check(isPlainObject, 'an object');

export const anyString = check((value): value is string => typeof value === 'string', 'a string');

interface StringOptions {
  pattern?: RegExp;
  expected?: string;
  /** Never echo the value: it may hold a password or key that must not reach the logs. */
  secret?: boolean;
}

export function string({ pattern, expected = 'a non-empty string', secret = false }: StringOptions = {}): Shape<string> {
  const accept = (value: unknown): value is string => typeof value === 'string' && value !== '' && (!pattern || pattern.test(value));
  return check(accept, expected, secret);
}

export function integer({ min, max }: { min: number; max?: number }): Shape<number> {
  const expected =
    max !== undefined ? `an integer from ${min} to ${max}` : min === 1 ? 'a positive integer' : min === 0 ? 'a non-negative integer' : `an integer of at least ${min}`;
  return check((value): value is number => Number.isSafeInteger(value) && (value as number) >= min && (max === undefined || (value as number) <= max), expected);
}

export function oneOf<const T extends string>(values: readonly T[]): Shape<T> {
  return check((value): value is T => (values as readonly unknown[]).includes(value), `one of ${values.map((value) => `"${value}"`).join(', ')}`);
}

export function arrayOf<T>(item: Shape<T>, { nonEmpty = false } = {}): Shape<T[]> {
  return (value, path, issues) => {
    if (!Array.isArray(value) || (nonEmpty && value.length === 0)) {
      return mismatch(issues, path, nonEmpty ? 'a non-empty array' : 'an array', value);
    }
    const before = issues.length;
    const items = value.map((element, index) => item(element, `${path}[${index}]`, issues));
    return issues.length === before ? (items as T[]) : undefined;
  };
}

/**
 * A value of one of two kinds, such as Strapi's "a string or a list of them". A value of the right kind
 * with wrong contents gets that kind's own messages (`[1] must be ...`); a value of neither kind, one
 * message naming both.
 */
export function either<A, B>(first: Shape<A>, second: Shape<B>, expected: string): Shape<A | B> {
  return (value, path, issues) => {
    for (const shape of [first, second] as const) {
      const own: ShapeIssue[] = [];
      const parsed = shape(value, path, own);
      if (own.length === 0) return parsed;
      if (own.some((issue) => issue.path !== path)) {
        issues.push(...own);
        return undefined;
      }
    }
    return mismatch(issues, path, expected, value);
  };
}

export function recordOf<T>(item: Shape<T>): Shape<Record<string, T>> {
  return (value, path, issues) => {
    if (!isPlainObject(value)) return mismatch(issues, path, 'an object', value);
    const before = issues.length;
    const entries = Object.entries(value).map(([key, element]) => [key, item(element, `${path}.${key}`, issues)]);
    return issues.length === before ? (Object.fromEntries(entries) as Record<string, T>) : undefined;
  };
}

interface ObjectOptions<F extends Fields, R extends keyof F> {
  required?: readonly R[];
  /** Keys accepted with any value and dropped: Strapi settings that mean nothing to Folio. */
  ignored?: readonly string[];
  /** Other keys are checked with this shape and dropped instead of being errors. */
  otherKeys?: Shape<unknown>;
  /** What to say about an unknown key, instead of "is not a known option". */
  unknownKey?: string;
  /** A specific explanation for particular unknown keys. */
  hints?: Readonly<Record<string, string>>;
}

export type ObjectOutput<F extends Fields, R extends keyof F = never> = { [K in R]: ShapeOutput<F[K]> } & { [K in Exclude<keyof F, R>]?: ShapeOutput<F[K]> };

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

export function object<F extends Fields, R extends keyof F & string = never>(fields: F, options: ObjectOptions<F, R> = {}): Shape<ObjectOutput<F, R>> {
  const known = Object.keys(fields);
  return (value, path, issues) => {
    if (!isPlainObject(value)) return mismatch(issues, path, 'an object', value);
    const before = issues.length;
    const output: Record<string, unknown> = {};
    for (const [key, fieldValue] of Object.entries(value)) {
      // `env('X')` yields undefined when X is unset; Strapi treats that as "not configured", and so do we.
      if (fieldValue === undefined || options.ignored?.includes(key)) continue;
      const field = fields[key];
      if (field) {
        const parsed = field(fieldValue, join(path, key), issues);
        if (parsed !== undefined) output[key] = parsed;
      } else if (options.otherKeys && !suggestKey(key, known)) {
        options.otherKeys(fieldValue, join(path, key), issues);
      } else {
        // with otherKeys too, a near miss of a known key is a typo, not another key
        const suggestion = suggestKey(key, known);
        const message = options.hints?.[key] ?? options.unknownKey ?? `is not a known option${suggestion ? ` (did you mean ${suggestion}?)` : ''}`;
        issues.push({ path: join(path, key), message });
      }
    }
    for (const key of options.required ?? []) {
      if (value[key] === undefined) issues.push({ path: join(path, key), message: 'is required' });
    }
    return issues.length === before ? (output as ObjectOutput<F, R>) : undefined;
  };
}
