import type { ScalarAttribute } from './types';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const BIG_INTEGER = /^-?\d+$/;

function expectedShape(attribute: ScalarAttribute, value: unknown): string | undefined {
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'password':
    case 'uid':
      return typeof value === 'string' ? undefined : 'a string';
    case 'enumeration':
      if (attribute.enum === undefined || (typeof value === 'string' && attribute.enum.includes(value))) return undefined;
      return `one of the enum values (${attribute.enum.join(', ')})`;
    case 'integer':
      return Number.isSafeInteger(value) ? undefined : 'an integer';
    case 'biginteger':
      // Strapi hands big integers around as strings, since they overflow a JS number.
      return Number.isSafeInteger(value) || (typeof value === 'string' && BIG_INTEGER.test(value)) ? undefined : 'an integer or a string of digits';
    case 'float':
    case 'decimal':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'a boolean';
    case 'date':
      return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'a date as YYYY-MM-DD';
    case 'time':
      return typeof value === 'string' && TIME.test(value) ? undefined : 'a time as HH:mm:ss';
    case 'datetime':
    case 'timestamp':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? undefined : 'an ISO 8601 date-time string';
    case 'blocks':
      return Array.isArray(value) ? undefined : 'an array of blocks';
    case 'json':
      return undefined;
  }
}

/** Why `default` cannot be stored in this attribute, or undefined when it can (or there is none). */
export function defaultValueProblem(attribute: ScalarAttribute): string | undefined {
  if (attribute.default === undefined) return undefined;
  const expected = expectedShape(attribute, attribute.default);
  return expected && `default ${JSON.stringify(attribute.default)} does not fit type ${attribute.type}: expected ${expected}`;
}
