import * as yup from 'yup';
import type { AnyObjectSchema, AnySchema, ArraySchema } from 'yup';
import type { Attribute, ComponentAttribute, DynamicZoneAttribute, Models } from '../models/types';
import { isRecord } from '../common/is-record';
import { scalarSchema } from './scalar-schemas';
import { notNil, notNull, typed } from './strapi-yup';

/**
 * The yup schemas of a model's attributes as Strapi's entity validator builds them
 * (packages/core/core/src/services/entity-validator/index.ts), for one kind of write. Strapi
 * builds them anew for each write, from its data; here each is built once, and what depends on
 * the data (a zone entry's component, whether a list has items) is chosen per value by `yup.lazy`
 * among schemas built once: building costs ~0.4 ms a component, so a body of 70,000 components
 * held the event loop for 30 s.
 *
 * `creation` holds a required attribute to be given (`must be defined.`), `update` only not to be
 * null; a draft (`isDraft`) is held to the upper bounds alone, as Strapi writes a draft first and
 * validates fully what it publishes (document-service.ts).
 */

export type WriteKind = 'creation' | 'update';

export interface ValidationOptions {
  kind: WriteKind;
  isDraft: boolean;
  /**
   * A draft still holds its required values (Strapi's drafts need not): REST reads through the
   * GraphQL types, where a required attribute is non-null, so a draft without one could not be read.
   */
  draftKeepsRequired?: boolean;
}

type Schema = AnySchema;

/** Strapi's `!isDraft && attr.required` */
const isRequired = (attribute: Attribute, options: ValidationOptions): boolean =>
  attribute.required === true && (!options.isDraft || options.draftKeepsRequired === true);

const addRequired = <T extends Schema>(schema: T, required: boolean, kind: WriteKind): T => {
  if (!required) return schema.nullable();
  return kind === 'creation' ? notNil(schema) : notNull(schema);
};

/** What an absent value becomes: on creation the attribute's default ([] for an optional list), on update nothing. */
const addDefault = (schema: Schema, attribute: Attribute, kind: WriteKind): Schema => {
  if (kind === 'update') return schema.default(undefined);
  const isList = (attribute.type === 'component' && attribute.repeatable) || attribute.type === 'dynamiczone';
  if (isList && !attribute.required) return schema.default([]);
  return schema.default('default' in attribute ? attribute.default : undefined);
};

/** Components, zones and relations are checked as given: yup's casts (a string parsed as JSON) are not applied. */
const preventCast = (schema: Schema): Schema => schema.transform((_value: unknown, original: unknown) => original);

/** yup 0.32 takes a `lazy` as a list's items, though its types say otherwise (Strapi casts too). */
const lazily = (choose: (value: unknown) => Schema): Schema => yup.lazy(choose) as unknown as Schema;

const hasItems = (value: unknown): boolean => Array.isArray(value) && value.length > 0;

/**
 * A list's bounds, on published versions: `max` always, `min` when the list is required or has
 * items (so an optional list may be left empty). `finish` completes each variant alike.
 */
const withBounds = (list: ArraySchema<Schema>, attribute: ComponentAttribute | DynamicZoneAttribute, options: ValidationOptions, finish: (schema: Schema) => Schema): Schema => {
  if (options.isDraft) return finish(list);
  const bounded = attribute.max !== undefined && Number.isInteger(attribute.max) ? list.max(attribute.max) : list;
  if (attribute.min === undefined || !Number.isInteger(attribute.min)) return finish(bounded);
  const withMin = finish(bounded.min(attribute.min));
  if (attribute.required) return withMin;
  const withoutMin = finish(bounded);
  return lazily((value) => (hasItems(value) ? withMin : withoutMin));
};

export const createEntitySchemas = (models: Models, options: ValidationOptions) => {
  const componentUids = [...models.components.keys()];
  const objectSchemas = new Map<Record<string, Attribute>, AnyObjectSchema>();
  const entries = new Map<string, Schema>();

  const componentAttributes = (uid: string): Record<string, Attribute> => {
    const component = models.components.get(uid);
    if (!component) throw new Error(`unknown component ${uid}`);
    return component.attributes;
  };

  /** the schema of a document or component: its attributes' */
  const modelSchema = (attributes: Record<string, Attribute>): AnyObjectSchema => {
    let schema = objectSchemas.get(attributes);
    if (!schema) {
      schema = typed(yup.object()).shape(Object.fromEntries(Object.entries(attributes).map(([name, attribute]) => [name, attributeSchema(attribute)])));
      objectSchemas.set(attributes, schema);
    }
    return schema;
  };

  /** A zone entry: `__component` one of the project's components (any, as in Strapi; prepare-data.ts refuses one the zone does not list), then its attributes. */
  const entrySchema = (uid: unknown): Schema => {
    const key = typeof uid === 'string' && models.components.has(uid) ? uid : '';
    let schema = entries.get(key);
    if (!schema) {
      const entry = notNull(typed(yup.object()).shape({ __component: typed(yup.string()).required().oneOf(componentUids) }));
      schema = key === '' ? entry : entry.concat(modelSchema(componentAttributes(key)));
      entries.set(key, schema);
    }
    return schema;
  };

  const componentSchema = (attribute: ComponentAttribute, finish: (schema: Schema) => Schema): Schema => {
    const attributes = componentAttributes(attribute.component);
    if (!attribute.repeatable) return finish(addRequired(modelSchema(attributes), isRequired(attribute, options), options.kind));
    // a repeatable component, like a zone, is always a list: `null` is refused as not an `array`
    const items = typed(yup.array()).of(notNull(modelSchema(attributes)));
    return withBounds(addRequired(items, true, options.kind), attribute, options, finish);
  };

  const zoneSchema = (attribute: DynamicZoneAttribute, finish: (schema: Schema) => Schema): Schema => {
    const items = typed(yup.array()).of(lazily((item) => entrySchema(isRecord(item) ? item.__component : undefined)));
    return withBounds(addRequired(items, true, options.kind), attribute, options, finish);
  };

  const attributeSchema = (attribute: Attribute): Schema => {
    const finish = (schema: Schema) => addDefault(preventCast(schema), attribute, options.kind);
    switch (attribute.type) {
      case 'media':
        return addDefault(yup.mixed(), attribute, options.kind);
      // Strapi's relation schema (a list of anything, or anything) refuses nothing
      case 'relation':
      case 'morph':
        return finish(yup.mixed());
      case 'component':
        return componentSchema(attribute, finish);
      case 'dynamiczone':
        return zoneSchema(attribute, finish);
      default:
        return addDefault(addRequired(scalarSchema(attribute, options.isDraft), isRequired(attribute, options), options.kind), attribute, options.kind);
    }
  };

  return { modelSchema };
};
