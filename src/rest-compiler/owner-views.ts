import { getNamedType, isLeafType, isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { Attribute, Models } from '../models/types';
import * as names from '../sdl/naming';

/**
 * What REST can show of each document type, read from the executable schema (so Shadow CRUD
 * switches apply) with the models' meaning: the leaf fields in Strapi's output order and the
 * fields only `populate` brings in. Content types, components and media files each get a view.
 */

export type Populatable =
  | { kind: 'relation'; name: string; target: string; toMany: boolean }
  | { kind: 'localizations'; name: string; target: string }
  | { kind: 'media'; name: string; multiple: boolean }
  | { kind: 'component'; name: string; component: string; repeatable: boolean }
  | { kind: 'dynamiczone'; name: string; components: string[] }
  /** a polymorphic relation: its items may be of any of `components` (the content-types, here) */
  | { kind: 'morph'; name: string; components: string[]; toMany: boolean };

export interface OwnerView {
  /** a content-type or component uid, or MEDIA_VIEW */
  key: string;
  typeName: string;
  /** `documentId` for documents and files (whose numeric id REST shows too), `id` for components */
  identity: 'documentId' | 'id';
  /** leaf fields shown by default, identity first, in Strapi's key order */
  leafFields: string[];
  /** populatable fields in output order: attributes as declared, localizations, dynamic zones last */
  populatable: Map<string, Populatable>;
  /** `<Type>FiltersInput`, when the type can be filtered */
  filtersInput?: string;
  attributes: Record<string, Attribute>;
  /** relations left out of both surfaces (to admin users, to plugin types Folio does not serve): `populate` may name them, for nothing */
  leftOut: ReadonlySet<string>;
}

export const MEDIA_VIEW = 'plugin::upload.file';

const SYSTEM_FIELDS = ['createdAt', 'updatedAt', 'publishedAt', 'locale'];

const objectType = (schema: GraphQLSchema, name: string): GraphQLObjectType | undefined => {
  const type = schema.getType(name);
  return isObjectType(type) ? type : undefined;
};

const leafNames = (type: GraphQLObjectType): Set<string> =>
  new Set(Object.values(type.getFields()).filter((field) => isLeafType(getNamedType(field.type))).map((field) => field.name));

const populatableOf = (name: string, attribute: Attribute, contentTypes: string[] = []): Populatable | undefined => {
  switch (attribute.type) {
    case 'morph':
      return { kind: 'morph', name, components: contentTypes, toMany: attribute.relation === 'morphToMany' };
    case 'relation':
      return { kind: 'relation', name, target: attribute.target, toMany: attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany' };
    case 'media':
      return { kind: 'media', name, multiple: attribute.multiple };
    case 'component':
      return { kind: 'component', name, component: attribute.component, repeatable: attribute.repeatable };
    case 'dynamiczone':
      return { kind: 'dynamiczone', name, components: attribute.components };
    default:
      return undefined;
  }
};

const orderedPopulatable = (type: GraphQLObjectType, attributes: Record<string, Attribute>, contentTypes: string[], localizationsOf?: string): Map<string, Populatable> => {
  const fields = type.getFields();
  const entries = Object.entries(attributes).flatMap(([name, attribute]) => {
    const populatable = name in fields ? populatableOf(name, attribute, contentTypes) : undefined;
    return populatable ? [populatable] : [];
  });
  const localizations: Populatable[] = localizationsOf && 'localizations' in fields ? [{ kind: 'localizations', name: 'localizations', target: localizationsOf }] : [];
  const ordered = [...entries.filter((entry) => entry.kind !== 'dynamiczone'), ...localizations, ...entries.filter((entry) => entry.kind === 'dynamiczone')];
  return new Map(ordered.map((entry) => [entry.name, entry]));
};

const scalarAttributeNames = (attributes: Record<string, Attribute>, leaves: Set<string>): string[] =>
  Object.keys(attributes).filter((name) => leaves.has(name) && populatableOf(name, attributes[name]) === undefined);

export const createOwnerViews = (models: Models, schema: GraphQLSchema): Map<string, OwnerView> => {
  const views = new Map<string, OwnerView>();
  // what a polymorphic relation may hold: the content-types the schema serves
  const served = [...models.contentTypes.values()].filter((contentType) => objectType(schema, names.typeName(contentType))).map((contentType) => contentType.uid);
  for (const contentType of models.contentTypes.values()) {
    const typeName = names.typeName(contentType);
    const type = objectType(schema, typeName);
    if (!type) continue;
    const leaves = leafNames(type);
    const filtersInput = names.filtersInputName(typeName);
    views.set(contentType.uid, {
      key: contentType.uid,
      typeName,
      identity: 'documentId',
      leafFields: ['documentId', ...scalarAttributeNames(contentType.attributes, leaves), ...SYSTEM_FIELDS.filter((name) => leaves.has(name))],
      populatable: orderedPopulatable(type, contentType.attributes, served, contentType.localized ? contentType.uid : undefined),
      filtersInput: schema.getType(filtersInput) ? filtersInput : undefined,
      attributes: contentType.attributes,
      leftOut: new Set(contentType.leftOut),
    });
  }
  for (const component of models.components.values()) {
    const typeName = names.componentTypeName(component);
    const type = objectType(schema, typeName);
    if (!type) continue;
    const filtersInput = names.filtersInputName(typeName);
    views.set(component.uid, {
      key: component.uid,
      typeName,
      identity: 'id',
      leafFields: ['id', ...scalarAttributeNames(component.attributes, leafNames(type))],
      populatable: orderedPopulatable(type, component.attributes, served),
      filtersInput: schema.getType(filtersInput) ? filtersInput : undefined,
      attributes: component.attributes,
      leftOut: new Set(component.leftOut),
    });
  }
  const file = objectType(schema, names.SHARED_NAMES.uploadFile);
  if (file) {
    const leaves = Object.values(file.getFields()).filter((field) => field.args.length === 0 && isLeafType(getNamedType(field.type)));
    views.set(MEDIA_VIEW, {
      key: MEDIA_VIEW,
      typeName: file.name,
      identity: 'documentId',
      leafFields: ['documentId', ...leaves.map((field) => field.name).filter((name) => name !== 'documentId')],
      populatable: new Map(),
      // the upload routes' lists are filtered; populated media take `fields` only
      filtersInput: schema.getType(names.SHARED_NAMES.uploadFileFilters) ? names.SHARED_NAMES.uploadFileFilters : undefined,
      attributes: {},
      leftOut: new Set(),
    });
  }
  return views;
};

/** Fields `fields=` may name: the leaf fields, and `id`, which REST shows on every document. */
export const selectableFields = (view: OwnerView): Set<string> => new Set([...view.leafFields, 'id']);
