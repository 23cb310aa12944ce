export const SCALAR_ATTRIBUTE_TYPES = [
  'string',
  'text',
  'richtext',
  'blocks',
  'email',
  'password',
  'uid',
  'enumeration',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'datetime',
  'timestamp',
  'json',
] as const;

export type ScalarAttributeType = (typeof SCALAR_ATTRIBUTE_TYPES)[number];
export type AttributeType = ScalarAttributeType | 'relation' | 'media' | 'component' | 'dynamiczone';
export type RelationKind = 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany';
export type MorphKind = 'morphToOne' | 'morphToMany';

interface AttributeBase {
  required?: boolean;
  unique?: boolean;
  private?: boolean;
  configurable?: boolean;
  /** `pluginOptions.i18n.localized` resolved: true unless the attribute opts out on a localized type. */
  localized: boolean;
}

export interface ScalarAttribute extends AttributeBase {
  type: ScalarAttributeType;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  /** enumeration only */
  enum?: string[];
  /** uid only */
  targetField?: string;
  /** a JavaScript regular expression (source) a string value must match, as Strapi's `regex` option */
  regex?: string;
}

export interface RelationAttribute extends AttributeBase {
  type: 'relation';
  relation: RelationKind;
  /** uid of the target content-type, e.g. `api::category.category` */
  target: string;
  inversedBy?: string;
  mappedBy?: string;
}

/**
 * A polymorphic relation (`"type": "relation", "relation": "morphToMany"`, no target): each related
 * document may be of any content-type, and is stored with its type, `{ __type, documentId }`.
 */
export interface MorphAttribute extends AttributeBase {
  type: 'morph';
  relation: MorphKind;
}

export interface MediaAttribute extends AttributeBase {
  type: 'media';
  multiple: boolean;
  allowedTypes?: string[];
}

export interface ComponentAttribute extends AttributeBase {
  type: 'component';
  /** uid of the component, e.g. `shared.seo` */
  component: string;
  repeatable: boolean;
  min?: number;
  max?: number;
}

export interface DynamicZoneAttribute extends AttributeBase {
  type: 'dynamiczone';
  components: string[];
  min?: number;
  max?: number;
}

export type Attribute = ScalarAttribute | RelationAttribute | MorphAttribute | MediaAttribute | ComponentAttribute | DynamicZoneAttribute;

export interface ContentType {
  /** `api::<api>.<singularName>` */
  uid: string;
  /** the folder name under `api/` */
  apiName: string;
  kind: 'collectionType' | 'singleType';
  collectionName: string;
  singularName: string;
  pluralName: string;
  displayName: string;
  description?: string;
  draftAndPublish: boolean;
  localized: boolean;
  attributes: Record<string, Attribute>;
  /**
   * `pluginOptions.folio`: the attributes indexed for filters and sorts (`indexed`) and for substring search
   * (`searchable`), in place of the defaults (every short scalar; every string, text, email and uid)
   */
  storage?: { indexed?: string[]; searchable?: string[] };
  /** path of the schema.json it was loaded from, for error messages */
  file: string;
  /**
   * Relations left out of both surfaces, by name: to admin users (as Strapi's content API leaves them out) and to
   * plugins' content types Folio does not serve. Nothing stores, filters or shows them; REST `populate` may name
   * them and adds nothing, as Strapi answers a populate it sanitizes away.
   */
  leftOut?: string[];
}

export interface Component {
  /** `<category>.<name>` */
  uid: string;
  category: string;
  name: string;
  collectionName: string;
  displayName: string;
  attributes: Record<string, Attribute>;
  file: string;
  /** as a content type's */
  leftOut?: string[];
}

export interface Models {
  contentTypes: Map<string, ContentType>;
  components: Map<string, Component>;
  /**
   * Attributes a project adds to a plugin's content type (`extensions/users-permissions/content-types/user/schema.json`),
   * by the plugin type's uid: merged when the plugin's module brings the type.
   */
  pluginExtensions?: Map<string, PluginTypeExtension>;
}

export interface PluginTypeExtension {
  file: string;
  attributes: Record<string, Attribute>;
  /** as a content type's, merged into the plugin type's */
  leftOut?: string[];
}

/** Attribute names the document service owns; a model may not declare them. */
export const RESERVED_ATTRIBUTE_NAMES = [
  'id',
  'documentId',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'createdBy',
  'updatedBy',
  'locale',
  'localizations',
  '__component',
  '__typename',
  '_id',
] as const;
