import type { AnySchema } from 'yup';
import printValue from 'yup/lib/util/printValue';

/**
 * What Strapi adds to yup (packages/core/utils/src/yup.ts) that its entity validator's messages
 * come from: its wording of a type error, and `notNil()` / `notNull()`. Strapi sets the type
 * error through yup's global locale; here each schema is given it (`typed`), leaving yup's
 * defaults alone.
 */

interface NotTypeParams {
  path: string;
  type: string;
  value: unknown;
  originalValue: unknown;
}

/** Strapi's `mixed.notType` (packages/core/utils/src/yup.ts): yup's own, less its hint about `.nullable()`. */
const notType = ({ path, type, value, originalValue }: NotTypeParams): string => {
  const isCast = originalValue !== null && originalValue !== undefined && originalValue !== value;
  const cast = isCast ? ` (cast from the value \`${printValue(originalValue, true)}\`).` : '.';
  return `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value, true)}\`${cast}`;
};

/** A schema whose type error is Strapi's wording (Strapi sets it for every schema through yup's locale). */
export const typed = <T extends AnySchema>(schema: T): T => schema.typeError(notType);

/** Strapi's `notNil()` and `notNull()` (packages/core/utils/src/yup.ts): what `required` becomes on creation and on update. */
export const notNil = <T extends AnySchema>(schema: T): T =>
  schema.test('defined', '${path} must be defined.', (value: unknown) => value !== undefined && value !== null);
export const notNull = <T extends AnySchema>(schema: T): T => schema.test('defined', '${path} cannot be null.', (value: unknown) => value !== null);

