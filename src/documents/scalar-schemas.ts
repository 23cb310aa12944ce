import * as yup from 'yup';
import type { AnySchema, NumberSchema, StringSchema } from 'yup';
import { string as stringMessages } from 'yup/lib/locale';
import type { ScalarAttribute } from '../models/types';
import { isEmailAddress } from '../common/email-address';
import { typed } from './strapi-yup';
import { blocksSchema } from './blocks-schema';

/**
 * Each scalar type's yup schema as Strapi's entity validator builds it
 * (packages/core/core/src/services/entity-validator/validators.ts), so the messages are yup's:
 * drafts are held to the upper bounds only (`maxLength`, `max`), published versions to every
 * option. `unique` is checked against the store (unique-values.ts), with Strapi's message.
 */

/** Each model `regex` compiled once, not per value. */
const patterns = new Map<string, RegExp>();
const patternOf = (source: string): RegExp => {
  let pattern = patterns.get(source);
  if (!pattern) patterns.set(source, (pattern = new RegExp(source)));
  return pattern;
};

const isPositiveInteger = (value: number | undefined): value is number => value !== undefined && Number.isInteger(value) && value > 0;

/** string, text, richtext, password (and the start of email and uid): no cast from other types */
const stringSchema = (attribute: ScalarAttribute, isDraft: boolean): StringSchema => {
  let schema: StringSchema = typed(yup.string()).transform((_value: unknown, original: unknown) => original);
  if (!isDraft && isPositiveInteger(attribute.minLength)) schema = schema.min(attribute.minLength);
  if (isPositiveInteger(attribute.maxLength)) schema = schema.max(attribute.maxLength);
  if (!isDraft && attribute.regex !== undefined) schema = schema.matches(patternOf(attribute.regex), { excludeEmptyString: !attribute.required });
  return schema;
};

/** yup's message for `email()` (a template string in its locale) */
const EMAIL_MESSAGE = String(stringMessages.email);

/**
 * yup's `email()` with its message, tested by Folio's linear check (common/email-address.ts):
 * yup's pattern backtracks, its time doubling with each `a.` of `a@a.a.a.…a. ` (tens of seconds for 30;
 * test/e2e/validation-messages). The empty string is left to `cannot be empty`, as in yup.
 */
const emailSchema = (attribute: ScalarAttribute, isDraft: boolean): StringSchema => {
  const schema = stringSchema(attribute, isDraft);
  if (isDraft) return schema;
  return schema
    .test('email', EMAIL_MESSAGE, (value: unknown) => typeof value !== 'string' || value === '' || isEmailAddress(value))
    .min(1, '${path} cannot be empty');
};

const numberSchema = (attribute: ScalarAttribute, isDraft: boolean, integer: boolean): NumberSchema => {
  let schema: NumberSchema = typed(yup.number());
  if (integer) schema = schema.integer();
  // Strapi truncates an integer attribute's bounds (lodash's toInteger)
  const bound = (value: number) => (integer ? Math.trunc(value) : value);
  if (!isDraft && attribute.min !== undefined) schema = schema.min(bound(attribute.min));
  if (attribute.max !== undefined) schema = schema.max(bound(attribute.max));
  return schema;
};

export const scalarSchema = (attribute: ScalarAttribute, isDraft: boolean): AnySchema => {
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'password':
      return stringSchema(attribute, isDraft);
    case 'email':
      return emailSchema(attribute, isDraft);
    case 'uid':
      return isDraft ? stringSchema(attribute, isDraft) : stringSchema(attribute, isDraft).matches(/^[A-Za-z0-9-_.~]*$/);
    case 'enumeration':
      return typed(yup.string()).oneOf([...(attribute.enum ?? []), null]);
    case 'boolean':
      return typed(yup.boolean());
    case 'integer':
      return numberSchema(attribute, isDraft, true);
    case 'float':
    case 'decimal':
      return numberSchema(attribute, isDraft, false);
    case 'blocks':
      return blocksSchema();
    // Strapi checks none of these itself; their form is checked as they are stored (coerce-scalar.ts)
    case 'biginteger':
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp':
    case 'json':
      return yup.mixed();
  }
};
