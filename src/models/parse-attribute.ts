import { createFieldReader, isRawObject, type RawObject } from './raw-fields';
import { SCALAR_ATTRIBUTE_TYPES, type Attribute, type AttributeType, type MorphKind, type RelationKind, type ScalarAttributeType } from './types';
import { customFieldType, type CustomFieldOptions } from './custom-fields';

const RELATION_KINDS: readonly RelationKind[] = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'];

const ATTRIBUTE_TYPES: readonly AttributeType[] = [...SCALAR_ATTRIBUTE_TYPES, 'relation', 'media', 'component', 'dynamiczone'];

function isAttributeType(type: unknown): type is AttributeType {
  return (ATTRIBUTE_TYPES as readonly unknown[]).includes(type);
}

function isScalarType(type: AttributeType): type is ScalarAttributeType {
  return (SCALAR_ATTRIBUTE_TYPES as readonly string[]).includes(type);
}

function isRelationKind(value: unknown): value is RelationKind {
  return (RELATION_KINDS as readonly unknown[]).includes(value);
}

/** Keeps attributes free of `key: undefined` noise, so they print and compare like the JSON they came from. */
function withoutUndefined<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

function unknownTypeMessage(raw: RawObject): string {
  if (raw.type === undefined) return 'type is missing';
  return `unknown type ${JSON.stringify(raw.type)} (expected one of ${ATTRIBUTE_TYPES.join(', ')})`;
}

/**
 * Reads one attribute's own fields. Returns undefined when the attribute cannot be represented at all (unknown
 * type, relation without target...); checks that need other attributes or other models are in validate-models.
 */
/** `regex`, when it compiles: a model that cannot be checked would accept anything. */
const regexOf = (source: string | undefined, report: (message: string) => void): string | undefined => {
  if (source === undefined) return undefined;
  try {
    new RegExp(source);
    return source;
  } catch (error) {
    report(`regex is not a valid regular expression: ${(error as Error).message}`);
    return undefined;
  }
};

/** A custom field read as its underlying type (see custom-fields), its other settings kept. */
const withoutCustomField = (raw: RawObject, options: CustomFieldOptions, unknown: (uid: string) => void): RawObject => {
  if (raw.type !== 'customField' || typeof raw.customField !== 'string') return raw;
  const type = customFieldType(raw.customField, options);
  if (!type) unknown(raw.customField);
  return { ...raw, type: type ?? 'json' };
};

/** `where`: the model file and attribute, for the warning about an unknown custom field */
export function parseAttribute(
  given: unknown,
  ownerLocalized: boolean,
  report: (message: string) => void,
  customFields: CustomFieldOptions = {},
  where = '',
): Attribute | undefined {
  if (!isRawObject(given)) {
    report('must be an object');
    return undefined;
  }
  const raw = withoutCustomField(given, customFields, (uid) =>
    customFields.warn?.(
      `folio: ${where}: custom field "${uid}" is not one Folio knows; it is served as JSON. Map it to its stored type in config/plugins: 'custom-fields': { config: { '${uid}': 'string' } }`,
    ),
  );
  const read = createFieldReader(report);
  const pluginOptions = read.object(raw, 'pluginOptions');
  const i18n = pluginOptions && read.object(pluginOptions, 'i18n', 'pluginOptions.i18n');
  const optedOut = i18n && read.boolean(i18n, 'localized', 'pluginOptions.i18n.localized') === false;
  const base = {
    required: read.boolean(raw, 'required'),
    unique: read.boolean(raw, 'unique'),
    private: read.boolean(raw, 'private'),
    configurable: read.boolean(raw, 'configurable'),
    // Strapi 5 localizes every field of a localized type, relations and media included, unless the field opts out.
    localized: ownerLocalized && !optedOut,
  };
  const type = raw.type;
  if (!isAttributeType(type)) {
    report(unknownTypeMessage(raw));
    return undefined;
  }
  if (isScalarType(type)) {
    return withoutUndefined({
      type,
      ...base,
      default: raw.default,
      minLength: read.count(raw, 'minLength'),
      maxLength: read.count(raw, 'maxLength'),
      min: read.number(raw, 'min'),
      max: read.number(raw, 'max'),
      enum: type === 'enumeration' ? read.stringArray(raw, 'enum', { required: true }) : undefined,
      targetField: type === 'uid' ? read.string(raw, 'targetField') : undefined,
      regex: regexOf(read.string(raw, 'regex'), report),
    });
  }
  switch (type) {
    case 'relation': {
      if (raw.relation === 'morphToOne' || raw.relation === 'morphToMany') {
        const relation: MorphKind = raw.relation;
        return withoutUndefined({ type: 'morph' as const, ...base, relation });
      }
      if (raw.relation === 'morphOne' || raw.relation === 'morphMany') {
        // the inverse of another type's morphTo* relation: Strapi reads it through its owning side's join table
        report(`relation ${raw.relation} (the inverse side of a polymorphic relation) is not served: read the relation from its morphToOne/morphToMany side, and remove this attribute`);
        return undefined;
      }
      if (!isRelationKind(raw.relation)) {
        report(`relation must be one of ${[...RELATION_KINDS, 'morphToOne', 'morphToMany'].join(', ')}, got ${JSON.stringify(raw.relation)}`);
      }
      const target = read.requiredString(raw, 'target');
      const inversedBy = read.string(raw, 'inversedBy');
      const mappedBy = read.string(raw, 'mappedBy');
      if (inversedBy !== undefined && mappedBy !== undefined) {
        report('a relation has either inversedBy (owning side) or mappedBy (inverse side), not both');
      }
      if (!isRelationKind(raw.relation) || target === undefined) return undefined;
      return withoutUndefined({ type, ...base, relation: raw.relation, target, inversedBy, mappedBy });
    }
    case 'media':
      return withoutUndefined({
        type,
        ...base,
        multiple: read.boolean(raw, 'multiple') ?? false,
        allowedTypes: read.stringArray(raw, 'allowedTypes'),
      });
    case 'component': {
      const component = read.requiredString(raw, 'component');
      const repeatable = read.boolean(raw, 'repeatable') ?? false;
      const range = { min: read.count(raw, 'min'), max: read.count(raw, 'max') };
      if (component === undefined) return undefined;
      return withoutUndefined({ type, ...base, component, repeatable, ...range });
    }
    case 'dynamiczone': {
      const components = read.stringArray(raw, 'components', { required: true });
      const range = { min: read.count(raw, 'min'), max: read.count(raw, 'max') };
      if (components === undefined) return undefined;
      return withoutUndefined({ type, ...base, components, ...range });
    }
  }
}
