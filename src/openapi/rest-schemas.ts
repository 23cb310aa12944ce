import { FILE_CONTENT_TYPE } from '../media/file-model';
import * as names from '../sdl/naming';
import type { Attribute, Component, ContentType, Models, ScalarAttribute } from '../models/types';
import { ref, type SchemaObject } from './openapi-shapes';

/**
 * The schemas of what REST answers and takes, written from the models (not from the GraphQL types, whose
 * connections, required lists and error unions REST never shows): a document has its id, documentId and
 * scalar attributes; a relation, media, component or dynamic zone only when populated, so none is required.
 * Per content type too: its `filters` (each attribute with its operators), `populate` and `fields`.
 */

export const documentSchemaName = (type: string) => `${type}Document`;
export const componentSchemaName = (type: string) => `${type}Component`;
export const filtersSchemaName = (type: string) => `${type}Filters`;
export const populateSchemaName = (type: string) => `${type}Populate`;
export const fieldsSchemaName = (type: string) => `${type}Fields`;


const scalarSchema = (attribute: ScalarAttribute): SchemaObject => {
  switch (attribute.type) {
    case 'integer':
      return { type: 'integer' };
    case 'float':
    case 'decimal':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'biginteger':
      return { type: 'string', pattern: '^-?\\d+$' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'enumeration':
      return { type: 'string', enum: attribute.enum };
    case 'json':
    case 'blocks':
      return {};
    default:
      return { type: 'string' };
  }
};

/** a schema that may also be null: OpenAPI 3.0 spells it with `nullable`, beside a `$ref` only through allOf */
const nullable = (schema: SchemaObject): SchemaObject => ('$ref' in schema ? { allOf: [schema], nullable: true } : { ...schema, nullable: true });

const visible = (attributes: Record<string, Attribute>) => Object.entries(attributes).filter(([, attribute]) => !attribute.private && attribute.type !== 'password');

export interface SchemaNames {
  /** the document schema of a content type by uid, when it has one */
  document(uid: string): string | undefined;
  component(uid: string): string | undefined;
}

const attributeSchema = (attribute: Attribute, schemaNames: SchemaNames): SchemaObject | undefined => {
  const many = (item: SchemaObject) => ({ type: 'array', items: item });
  switch (attribute.type) {
    case 'relation': {
      const target = schemaNames.document(attribute.target);
      if (!target) return undefined;
      return attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany' ? many(ref('schemas', target)) : nullable(ref('schemas', target));
    }
    case 'media': {
      const file = schemaNames.document(FILE_CONTENT_TYPE.uid);
      if (!file) return undefined;
      return attribute.multiple ? many(ref('schemas', file)) : nullable(ref('schemas', file));
    }
    case 'component': {
      const component = schemaNames.component(attribute.component);
      if (!component) return undefined;
      return attribute.repeatable ? many(ref('schemas', component)) : nullable(ref('schemas', component));
    }
    case 'dynamiczone': {
      const entries = attribute.components.flatMap((uid) => {
        const component = schemaNames.component(uid);
        return component ? [{ allOf: [ref('schemas', component), { type: 'object', required: ['__component'], properties: { __component: { type: 'string', enum: [uid] } } }] }] : [];
      });
      return many({ oneOf: entries });
    }
    case 'morph': {
      // populated, each item is a document of one of the related types, named by `__type`
      const item: SchemaObject = { type: 'object', required: ['__type'], properties: { __type: { type: 'string' } }, additionalProperties: true };
      return attribute.relation === 'morphToMany' ? many(item) : nullable(item);
    }
    default:
      return nullable(scalarSchema(attribute));
  }
};

const objectOf = (attributes: Record<string, Attribute>, own: Record<string, SchemaObject>, required: string[], schemaNames: SchemaNames): SchemaObject => {
  const properties: Record<string, SchemaObject> = { ...own };
  for (const [name, attribute] of visible(attributes)) {
    const schema = attributeSchema(attribute, schemaNames);
    if (schema) properties[name] = schema;
  }
  return { type: 'object', required, properties };
};

const SYSTEM_DATES = { createdAt: { type: 'string', format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' } };

export const documentSchema = (contentType: ContentType, schemaNames: SchemaNames): SchemaObject =>
  objectOf(
    contentType.attributes,
    {
      id: { type: 'integer' },
      documentId: { type: 'string' },
      ...SYSTEM_DATES,
      ...(contentType.draftAndPublish ? { publishedAt: { type: 'string', format: 'date-time', nullable: true } } : {}),
      ...(contentType.localized ? { locale: { type: 'string', nullable: true } } : {}),
    },
    ['id', 'documentId'],
    schemaNames,
  );

export const componentSchema = (component: Component, schemaNames: SchemaNames): SchemaObject =>
  objectOf(component.attributes, { id: { type: 'integer' } }, ['id'], schemaNames);

/**
 * Strapi's filter operators, as the query string carries them (values are strings there, lists for $in/$notIn/$between);
 * a field's $and/$or list values or operator objects, its $not one operator object.
 */
const VALUE_OPERATORS = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi'];
const LIST_OPERATORS = ['$in', '$notIn', '$between'];

const operatorsSchema = (): SchemaObject => ({
  type: 'object',
  properties: {
    ...Object.fromEntries(VALUE_OPERATORS.map((operator) => [operator, { type: 'string' }])),
    ...Object.fromEntries(LIST_OPERATORS.map((operator) => [operator, { type: 'array', items: { type: 'string' } }])),
    $null: { type: 'boolean' },
    $notNull: { type: 'boolean' },
    $and: { type: 'array', items: { oneOf: [{ type: 'string' }, ref('schemas', OPERATORS_SCHEMA)] } },
    $or: { type: 'array', items: { oneOf: [{ type: 'string' }, ref('schemas', OPERATORS_SCHEMA)] } },
    $not: ref('schemas', OPERATORS_SCHEMA),
  },
  additionalProperties: false,
});

export const OPERATORS_SCHEMA = 'FilterOperators';

export const filtersSchema = (attributes: Record<string, Attribute>, ownName: string, schemaNames: SchemaNames & { filters(uid: string): string | undefined }): SchemaObject => {
  const operators = ref('schemas', OPERATORS_SCHEMA);
  const properties: Record<string, SchemaObject> = { id: operators, documentId: operators, createdAt: operators, updatedAt: operators, publishedAt: operators, locale: operators };
  for (const [name, attribute] of visible(attributes)) {
    if (attribute.type === 'relation') {
      const target = schemaNames.filters(attribute.target);
      if (target) properties[name] = ref('schemas', target);
    } else if (attribute.type === 'component') {
      const target = schemaNames.filters(attribute.component);
      if (target) properties[name] = ref('schemas', target);
    } else if (attribute.type !== 'media' && attribute.type !== 'dynamiczone') {
      properties[name] = operators;
    }
  }
  const self = ref('schemas', ownName);
  return { type: 'object', properties: { ...properties, $and: { type: 'array', items: self }, $or: { type: 'array', items: self }, $not: self }, additionalProperties: false };
};

/** `populate`: `*`, a list of attribute names, or the object form with each attribute's own options */
export const populateSchema = (attributes: Record<string, Attribute>): SchemaObject => {
  const populated = visible(attributes).filter(([, attribute]) => ['relation', 'media', 'component', 'dynamiczone'].includes(attribute.type));
  const names = populated.map(([name]) => name);
  // an item is `*`, a name, or a dotted path from a name through relations, components and zones (`blocks.image`)
  const itemPattern = names.length > 0 ? `^(\\*|(${names.join('|')})(\\..+)?)$` : '^\\*$';
  const options: SchemaObject = {
    anyOf: [
      { type: 'boolean' },
      { type: 'string', enum: ['*', 'true'] },
      {
        type: 'object',
        properties: {
          fields: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          filters: { type: 'object' },
          sort: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          populate: {},
          count: { type: 'boolean' },
          on: { type: 'object' },
        },
      },
    ],
  };
  return {
    anyOf: [
      { type: 'string', description: '`*`, or attribute names separated by commas' },
      { type: 'array', items: { type: 'string', pattern: itemPattern } },
      { type: 'object', properties: Object.fromEntries(names.map((name) => [name, options])), additionalProperties: false },
    ],
  };
};

export const fieldsSchema = (attributes: Record<string, Attribute>): SchemaObject => {
  const scalars = visible(attributes).filter(([, attribute]) => !['relation', 'media', 'component', 'dynamiczone'].includes(attribute.type)).map(([name]) => name);
  return { anyOf: [{ type: 'string', description: 'attribute names separated by commas' }, { type: 'array', items: { type: 'string', enum: ['documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale', ...scalars] } }] };
};

/** Every REST schema of the models: documents, components, and each content type's query parameters. */
export const restSchemas = (models: Models): { schemas: Record<string, SchemaObject>; names: SchemaNames } => {
  const documentNames = new Map([...models.contentTypes.values()].map((contentType) => [contentType.uid, names.typeName(contentType)]));
  const componentNames = new Map([...models.components.values()].map((component) => [component.uid, names.componentTypeName(component)]));
  const named = (types: Map<string, string>, nameOf: (type: string) => string) => (uid: string) => {
    const type = types.get(uid);
    return type === undefined ? undefined : nameOf(type);
  };
  const schemaNames = {
    document: named(documentNames, documentSchemaName),
    component: named(componentNames, componentSchemaName),
    filters: named(new Map([...documentNames, ...componentNames]), filtersSchemaName),
  };
  const schemas: Record<string, SchemaObject> = { [OPERATORS_SCHEMA]: operatorsSchema() };
  for (const contentType of models.contentTypes.values()) {
    const type = names.typeName(contentType);
    schemas[documentSchemaName(type)] = documentSchema(contentType, schemaNames);
    schemas[filtersSchemaName(type)] = filtersSchema(contentType.attributes, filtersSchemaName(type), schemaNames);
    schemas[populateSchemaName(type)] = populateSchema(contentType.attributes);
    schemas[fieldsSchemaName(type)] = fieldsSchema(contentType.attributes);
  }
  for (const component of models.components.values()) {
    const type = names.componentTypeName(component);
    schemas[componentSchemaName(type)] = componentSchema(component, schemaNames);
    schemas[filtersSchemaName(type)] = filtersSchema(component.attributes, filtersSchemaName(type), schemaNames);
  }
  return { schemas, names: schemaNames };
};
