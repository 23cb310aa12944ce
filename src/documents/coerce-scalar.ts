import { MAX_BIGINT_DIGITS } from './bigint-sort-key';
import type { ScalarAttribute } from '../models/types';
import type { StoredValue } from '../storage/types';

/**
 * Turns an incoming attribute value (already parsed by a GraphQL scalar, or raw JSON inside a
 * dynamic zone) into its stored form, or says why it cannot. The attribute options (required,
 * length, range, regex, e-mail and uid patterns, which drafts may break as in Strapi) are checked
 * by entity-validator.ts, uniqueness by unique-values.ts; this is only about type and form.
 */

export type Coerced = { ok: true; value: StoredValue } | { ok: false; message: string };

const ok = (value: StoredValue): Coerced => ({ ok: true, value });
const fail = (message: string): Coerced => ({ ok: false, message });

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/;

const asDate = (value: unknown): Date | undefined => {
  const date = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
};

const isBlock = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { type?: unknown }).type === 'string';

const toJson = (value: unknown): StoredValue => JSON.parse(JSON.stringify(value)) as StoredValue;

export const coerceScalar = (attribute: ScalarAttribute, value: unknown): Coerced => {
  if (value === null) return ok(null);
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'password':
    case 'email':
    case 'uid':
      return typeof value === 'string' ? ok(value) : fail('must be a `string` type');
    case 'enumeration':
      return typeof value === 'string' && (attribute.enum ?? []).includes(value)
        ? ok(value)
        : fail(`must be one of the following values: ${(attribute.enum ?? []).join(', ')}`);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? ok(value) : fail('must be an integer');
    case 'biginteger':
      if (typeof value === 'string' && value.replace(/^-?0*/, '').length > MAX_BIGINT_DIGITS) return fail(`must be an integer of at most ${MAX_BIGINT_DIGITS} digits`);
      if ((typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value))) {
        // canonical text ("007" → "7", "-0" → "0"): equality and range filters rely on one spelling per number
        return ok(BigInt(value).toString());
      }
      return fail('must be an integer');
    case 'float':
    case 'decimal':
      return typeof value === 'number' && Number.isFinite(value) ? ok(value) : fail('must be a `number` type');
    case 'boolean':
      return typeof value === 'boolean' ? ok(value) : fail('must be a `boolean` type');
    case 'date': {
      if (typeof value === 'string' && DATE.test(value) && asDate(value)) return ok(value);
      const date = value instanceof Date ? asDate(value) : undefined;
      return date ? ok(date.toISOString().slice(0, 10)) : fail('must be a valid date (YYYY-MM-DD)');
    }
    case 'time':
      if (typeof value !== 'string' || !TIME.test(value)) return fail('must be a valid time (HH:mm:ss.SSS)');
      return ok(`${value}${value.length === 5 ? ':00' : ''}${value.length <= 8 ? '.000' : ''}`.slice(0, 12));
    case 'datetime':
    case 'timestamp': {
      const date = asDate(value);
      return date ? ok(date.toISOString()) : fail('must be a valid datetime (ISO 8601)');
    }
    case 'blocks':
      return Array.isArray(value) && value.every(isBlock) ? ok(toJson(value)) : fail('must be an array of blocks');
    case 'json':
      return ok(toJson(value));
  }
};
