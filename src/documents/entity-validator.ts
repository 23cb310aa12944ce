import * as yup from 'yup';
import type { AnyObjectSchema } from 'yup';
import type { Attribute, Models } from '../models/types';
import type { ValidationIssue } from '../errors/graphql-errors';
import { isRecord } from '../common/is-record';
import { createEntitySchemas, type ValidationOptions } from './entity-schema';
import { toPath } from './validation-paths';
import { createYupInput } from './yup-input';

/**
 * The attribute options of a write (required, lengths, bounds, regex, e-mail, enumerations,
 * components and dynamic zones at any depth), checked with yup as Strapi's entity validator checks
 * them, so each message and path is Strapi's: `compo[0].description must be at least 3
 * characters`, `dz[0].__component is a required field`, `name must be a \`string\` type, but the
 * final value was: \`null\`.`; several are `N errors occurred`, each in `details.errors`
 * (Strapi's formatYupErrors: the path split, the message, the value).
 */

export type { ValidationOptions, WriteKind } from './entity-schema';

/** Strapi's message when a dynamic-zone entry names no component (its relations store cannot be built). */
const NO_ZONE_COMPONENT = 'Cannot build relations store from dynamiczone, component identifier is undefined';

const issuesOf = (error: yup.ValidationError): ValidationIssue[] =>
  (error.inner.length > 0 ? error.inner : [error]).map((inner) => ({
    path: toPath(inner.path),
    message: inner.message,
    name: 'ValidationError' as const,
    ...(inner.value === undefined ? {} : { value: inner.value }),
  }));

export const createEntityValidator = (models: Models) => {
  const yupInput = createYupInput(models);
  const byOptions = new Map<string, ReturnType<typeof createEntitySchemas>>();
  /** by a document's attributes, then by options */
  const documents = new Map<Record<string, Attribute>, Map<string, AnyObjectSchema>>();

  /**
   * Strapi's `relations-test` on the whole entry (its relations store) fails, after the attributes'
   * own errors, on a zone entry naming no component or an unknown one. The relations themselves are
   * checked as they are written (relation-writes.ts), with Strapi's messages.
   */
  const zoneEntryProblem = (attributes: Record<string, Attribute>, data: unknown): string | undefined => {
    if (!isRecord(data)) return undefined;
    for (const [name, attribute] of Object.entries(attributes)) {
      const value = data[name];
      if (attribute.type !== 'dynamiczone' || value === null || value === undefined) continue;
      for (const entry of Array.isArray(value) ? value : [value]) {
        if (entry === null) return 'Invalid relations';
        const uid = isRecord(entry) ? entry.__component : undefined;
        if (!uid) return NO_ZONE_COMPONENT;
        if (typeof uid !== 'string' || !models.components.has(uid)) return 'Invalid relations';
      }
    }
    return undefined;
  };

  /** a document's schema, with the test Strapi adds to the document alone */
  const documentSchema = (attributes: Record<string, Attribute>, options: ValidationOptions): AnyObjectSchema => {
    const key = `${options.kind}|${options.isDraft}|${options.draftKeepsRequired === true}`;
    let schemas = byOptions.get(key);
    if (!schemas) byOptions.set(key, (schemas = createEntitySchemas(models, options)));
    let ofAttributes = documents.get(attributes);
    if (!ofAttributes) documents.set(attributes, (ofAttributes = new Map()));
    let schema = ofAttributes.get(key);
    if (!schema) {
      schema = schemas.modelSchema(attributes).test('relations-test', 'check that all relations exist', function relationsStore(value: unknown) {
        const problem = zoneEntryProblem(attributes, value);
        return problem === undefined || this.createError({ path: this.path, message: problem });
      });
      ofAttributes.set(key, schema);
    }
    return schema;
  };

  return {
    /** The issues of `data` for these attributes (a content type's): none when it may be written. */
    validate(attributes: Record<string, Attribute>, data: Record<string, unknown>, options: ValidationOptions): ValidationIssue[] {
      try {
        documentSchema(attributes, options).validateSync(yupInput(attributes, data), { strict: false, abortEarly: false });
        return [];
      } catch (error) {
        if (error instanceof yup.ValidationError) return issuesOf(error);
        throw error;
      }
    },
  };
};

export type EntityValidator = ReturnType<typeof createEntityValidator>;
