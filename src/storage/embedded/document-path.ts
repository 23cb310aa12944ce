import type { StoredDocument, StoredValue } from '../types';

function isObject(value: StoredValue | undefined): value is { [key: string]: StoredValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a dotted path (numeric segments index arrays); undefined when missing. */
export function getPath(document: StoredDocument, path: string): StoredValue | undefined {
  let current: StoredValue | undefined = document;
  for (const segment of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (isObject(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

/**
 * Every value a dotted path reaches, descending into arrays of objects as MongoDB does
 * (`authors.name` over `authors: [{name}, {name}]` reaches both names); empty when missing.
 */
export function collectPathValues(document: StoredDocument, path: string): StoredValue[] {
  let current: StoredValue[] = [document];
  for (const segment of path.split('.')) {
    const next: StoredValue[] = [];
    for (const value of current) {
      if (isObject(value)) {
        if (Object.hasOwn(value, segment)) next.push(value[segment]);
      } else if (Array.isArray(value)) {
        if (/^\d+$/.test(segment) && Number(segment) < value.length) next.push(value[Number(segment)]);
        for (const item of value) if (isObject(item) && Object.hasOwn(item, segment)) next.push(item[segment]);
      }
    }
    current = next;
  }
  return current;
}
