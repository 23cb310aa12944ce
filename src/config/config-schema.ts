import { z } from 'zod';
import { suggestKey } from './suggest-key';

/**
 * The building blocks of the config files' zod schemas (file-schemas.ts). Each block says in one sentence
 * what it takes ("must be a positive integer, got 0"), every object knows all its keys (an unknown one is
 * named with the key it most likely meant), and `issuesOf` turns zod's issues into one line per mistake.
 * The same schemas, with their `meta`, write docs/configuration.md (config-docs.ts).
 */

export interface ConfigIssue {
  path: string;
  message: string;
}

/** What a key is documented with (docs/configuration.md): what it does, its default and an example value. */
// a type, not an interface: zod's meta takes an object with an index signature
export type KeyDocs = {
  description?: string;
  default?: unknown;
  /** instead of `default`, when the default is not one value ("off in production") */
  defaultText?: string;
  example?: unknown;
};

function got(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : 'an array';
  // NaN is what `env.int` gives for a non-numeric variable; JSON would print it as null.
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? typeof value;
}

/** zod's `error` option: one sentence naming what the key takes, and the value given unless it may be a secret. */
export function expecting(expected: string, { secret = false, suggest }: { secret?: boolean; suggest?: readonly string[] } = {}) {
  return {
    error: (issue: z.core.$ZodRawIssue): string => {
      if (issue.input === undefined) return 'is required';
      if (secret) return `must be ${expected}`;
      const meant = suggest && typeof issue.input === 'string' ? suggestKey(issue.input, suggest) : undefined;
      return `must be ${expected}, got ${got(issue.input)}${meant ? ` (did you mean "${meant}"?)` : ''}`;
    },
  };
}

/** Tag-based rather than prototype-based, so objects from another realm count and Promises, Maps or Dates do not. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return Object.prototype.toString.call(value) === '[object Object]';
}

export const boolean = z.boolean(expecting('a boolean'));

export const anyValue = z.unknown();

export const anyObject = z.record(z.string(), z.unknown(), expecting('an object'));

export const anyString = z.string(expecting('a string'));

interface StringOptions {
  pattern?: RegExp;
  expected?: string;
  /** Never echo the value: it may hold a password or key that must not reach the logs. */
  secret?: boolean;
}

export function string({ pattern, expected = 'a non-empty string', secret = false }: StringOptions = {}) {
  const error = expecting(expected, { secret });
  const text = z.string(error).min(1, error);
  return pattern ? text.regex(pattern, error) : text;
}

export function integer({ min, max, expected: said }: { min: number; max?: number; expected?: string }) {
  const expected =
    said ??
    (max !== undefined ? `an integer from ${min} to ${max}` : min === 1 ? 'a positive integer' : min === 0 ? 'a non-negative integer' : `an integer of at least ${min}`);
  const error = expecting(expected);
  const atLeast = z.int(error).min(min, error);
  return max === undefined ? atLeast : atLeast.max(max, error);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, expecting(`one of ${values.map((value) => `"${value}"`).join(', ')}`, { suggest: values }));
}

export function arrayOf<T extends z.ZodType>(item: T, { nonEmpty = false } = {}) {
  const error = expecting(nonEmpty ? 'a non-empty array' : 'an array');
  const list = z.array(item, error);
  return nonEmpty ? list.min(1, error) : list;
}

export function recordOf<T extends z.ZodType>(item: T) {
  return z.record(z.string(), item, expecting('an object'));
}

/**
 * A value of one of two kinds, such as Strapi's "a string or a list of them". A value of the right kind
 * with wrong contents gets that kind's own messages (`[1] must be ...`); a value of neither kind, one
 * message naming both (see collect). zod hands back the only kind whose checks alone failed (`''` for a
 * non-empty string): give that kind the union's `expected` too, so such a value hears of both kinds.
 */
export function either<A extends z.ZodType, B extends z.ZodType>(first: A, second: B, expected: string) {
  return z.union([first, second], expecting(expected));
}

interface ObjectOptions {
  /** Keys accepted with any value and dropped: Strapi settings that mean nothing to Folio. */
  ignored?: readonly string[];
  /** Other keys are checked with this schema and dropped instead of being errors. */
  otherKeys?: z.ZodType;
  /** What to say about an unknown key, instead of "is not a known option". */
  unknownKey?: string;
  /** What a key is called in messages: "option", or "export" for an extension module's. */
  keyNoun?: string;
  /** A specific explanation for particular unknown keys. */
  hints?: Readonly<Record<string, string>>;
}

/**
 * An object whose every key is known: an unknown one is an issue naming the key it most likely meant
 * (reported together with the known keys' own issues, so a file is fixed in one round). The value keeps
 * only the known keys that are set: `env('X')` yields undefined when X is unset, which Strapi takes as
 * "not configured", and so do we.
 */
export function object<F extends z.ZodRawShape>(fields: F, options: ObjectOptions = {}) {
  const known = Object.keys(fields);
  const ignored = new Set(options.ignored);
  const unknownKeys = (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    for (const [key, fieldValue] of Object.entries(value)) {
      if (Object.hasOwn(fields, key) || ignored.has(key) || fieldValue === undefined) continue;
      const suggestion = suggestKey(key, known);
      // with otherKeys too, a near miss of a known key is a typo, not another key
      if (options.otherKeys && !suggestion) {
        const other = options.otherKeys.safeParse(fieldValue);
        for (const issue of other.error?.issues ?? []) ctx.addIssue({ ...issue, path: [key, ...issue.path] });
        continue;
      }
      const message = options.hints?.[key] ?? options.unknownKey ?? `is not a known ${options.keyNoun ?? 'option'}${suggestion ? ` (did you mean ${suggestion}?)` : ''}`;
      ctx.addIssue({ code: 'custom', path: [key], message, input: fieldValue });
    }
  };
  return z
    .object(fields, expecting('an object'))
    .catchall(z.unknown())
    .superRefine((value, ctx) => (isPlainObject(value) ? unknownKeys(value, ctx) : undefined), { when: () => true })
    .transform((value) => {
      const set = Object.entries(value).filter(([key, fieldValue]) => Object.hasOwn(fields, key) && fieldValue !== undefined);
      return Object.fromEntries(set) as z.output<z.ZodObject<F>>;
    });
}

/** A path inside a value (`[0].name`, `rest.maxLimit`) put under the path of that value in its file. */
export function joinPath(base: string, path: string): string {
  if (!base || !path) return base || path;
  return path.startsWith('[') ? `${base}${path}` : `${base}.${path}`;
}

function pathText(path: readonly PropertyKey[], base = ''): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), base);
}

/** Where an issue's path lies in the file, as positions of its keys: issues are told top to bottom. */
function positionOf(value: unknown, path: readonly PropertyKey[]): number[] {
  const positions: number[] = [];
  let at = value;
  for (const key of path) {
    if (typeof key === 'number') positions.push(key);
    else {
      // a required key that is missing comes after those written
      const index = isPlainObject(at) ? Object.keys(at).indexOf(String(key)) : -1;
      positions.push(index === -1 ? Number.MAX_SAFE_INTEGER : index);
    }
    at = valueAt(at, [key]);
  }
  return positions;
}

function byPosition(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return a[index] - b[index];
  return a.length - b.length;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((at, key) => (isPlainObject(at) || Array.isArray(at) ? (at as Record<PropertyKey, unknown>)[key] : undefined), value);
}

/**
 * One line per mistake, top to bottom. A union's value of the right kind with wrong contents (issues deeper
 * in it, or a refinement's own) reports that kind's issues; of neither kind, the union's sentence.
 */
function collect(issues: readonly z.core.$ZodIssue[], value: unknown, base: string, out: ConfigIssue[]): void {
  const ordered = issues
    .map((issue) => ({ issue, position: positionOf(value, issue.path) }))
    .sort((a, b) => byPosition(a.position, b.position))
    .map(({ issue }) => issue);
  for (const issue of ordered) {
    const path = pathText(issue.path, base);
    const deeper = issue.code === 'invalid_union' ? issue.errors.find((branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0 || inner.code === 'custom')) : undefined;
    if (deeper) collect(deeper, valueAt(value, issue.path), path, out);
    else if (!out.some((seen) => seen.path === path && seen.message === issue.message)) out.push({ path, message: issue.message });
  }
}

/** The value as its schema gives it, or the issues found, each with its path inside the file. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): { value?: z.output<S>; issues: ConfigIssue[] } {
  const result = schema.safeParse(value);
  if (result.success) return { value: result.data, issues: [] };
  const issues: ConfigIssue[] = [];
  collect(result.error.issues, value, '', issues);
  return { issues };
}
