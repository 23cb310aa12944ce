/** Typed reads of untrusted JSON fields; each wrong field is reported, never thrown, so all problems surface at once. */
export type RawObject = Record<string, unknown>;

export function isRawObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface FieldReader {
  boolean(object: RawObject, key: string, label?: string): boolean | undefined;
  string(object: RawObject, key: string, label?: string): string | undefined;
  requiredString(object: RawObject, key: string, label?: string): string | undefined;
  number(object: RawObject, key: string): number | undefined;
  count(object: RawObject, key: string): number | undefined;
  stringArray(object: RawObject, key: string, options?: { required?: boolean }): string[] | undefined;
  object(object: RawObject, key: string, label?: string): RawObject | undefined;
}

export function createFieldReader(report: (message: string) => void): FieldReader {
  function read<T>(object: RawObject, key: string, label: string, accept: (value: unknown) => value is T, expected: string): T | undefined {
    const value = object[key];
    if (value === undefined) return undefined;
    if (accept(value)) return value;
    report(`${label} must be ${expected}, got ${JSON.stringify(value)}`);
    return undefined;
  }
  const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
  const isString = (value: unknown): value is string => typeof value === 'string';
  const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
  const isStringArray = (value: unknown): value is string[] =>
    Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string' && item !== '');

  return {
    boolean: (object, key, label = key) => read(object, key, label, isBoolean, 'a boolean'),
    string: (object, key, label = key) => read(object, key, label, isString, 'a string'),
    requiredString(object, key, label = key) {
      const value = object[key];
      if (typeof value === 'string' && value !== '') return value;
      report(value === undefined ? `${label} is missing` : `${label} must be a non-empty string, got ${JSON.stringify(value)}`);
      return undefined;
    },
    number: (object, key) => read(object, key, key, isNumber, 'a number'),
    count: (object, key) => read(object, key, key, isCount, 'a non-negative integer'),
    stringArray(object, key, { required = false } = {}) {
      if (required && object[key] === undefined) {
        report(`${key} is missing (expected a non-empty array of strings)`);
        return undefined;
      }
      return read(object, key, key, isStringArray, 'a non-empty array of non-empty strings');
    },
    object: (object, key, label = key) => read(object, key, label, isRawObject, 'an object'),
  };
}
