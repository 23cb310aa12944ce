import { getNamedType, isEnumType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { Attribute, Models } from '../models/types';
import * as names from '../sdl/naming';
import { MAX_GROUP_ATTRIBUTES } from '../sdl/aggregation-fields';
import type { SchemaObject } from './openapi-shapes';

/**
 * The OpenAPI side of a list route's aggregation (issue 36, rest/rest-aggregation.ts): the `aggregate` and
 * `groupBy` parameters with the attribute names the type offers (groupBy: up to 8 of them, one entry per combination
 * of their values), and the entry each group answers. Read off the schema's `<Type>Aggregator…` types and
 * `<Type>GroupByAttribute` enum, so the document offers what GraphQL offers.
 */

export const aggregateQuerySchemaName = (type: string) => `${type}AggregateQuery`;
export const groupByQuerySchemaName = (type: string) => `${type}GroupByQuery`;
export const aggregateEntrySchemaName = (type: string) => `${type}AggregateEntry`;

const PARTS = { sum: 'Sum', avg: 'Avg', min: 'Min', max: 'Max' } as const;

const fieldsOf = (schema: GraphQLSchema, name: string): Array<GraphQLField<unknown, unknown>> => {
  const type = schema.getType(name);
  return isObjectType(type) ? Object.values(type.getFields()) : [];
};

/** A value of an aggregator field as REST answers it: null where no document has one. */
const valueSchema = (field: GraphQLField<unknown, unknown>): SchemaObject => {
  switch (getNamedType(field.type).name) {
    case 'Int':
      return { type: 'integer', nullable: true };
    case 'Float':
      return { type: 'number', nullable: true };
    case 'Date':
      return { type: 'string', format: 'date', nullable: true };
    case 'DateTime':
      return { type: 'string', format: 'date-time', nullable: true };
    default:
      return { type: 'string', nullable: true };
  }
};

/** A group's key as REST answers it (rest-aggregation's typedKey): numbers and booleans as such, a relation by documentId. */
const keySchema = (attribute: Attribute | undefined): SchemaObject => {
  switch (attribute?.type) {
    case 'integer':
    case 'float':
    case 'decimal':
      return { type: 'number', nullable: true };
    case 'boolean':
      return { type: 'boolean', nullable: true };
    default:
      return { type: 'string', nullable: true };
  }
};

/** One name, or several (an array, or a comma-separated string), of `offered`. */
const namesSchema = (offered: string[], maxItems?: number): SchemaObject => ({
  anyOf: [{ type: 'string', example: offered[0] }, { type: 'array', items: { type: 'string', enum: offered }, ...(maxItems === undefined ? {} : { maxItems }) }],
});

/** Each content type's three schemas, for the types whose connection aggregates. */
export const aggregationSchemas = (schema: GraphQLSchema, models: Models): Record<string, SchemaObject> => {
  const schemas: Record<string, SchemaObject> = {};
  for (const contentType of models.contentTypes.values()) {
    const type = names.typeName(contentType);
    if (!schema.getType(names.aggregatorName(type))) continue;
    const parts = Object.entries(PARTS).map(([part, suffix]) => [part, fieldsOf(schema, names.aggregatorName(type, suffix))] as const);
    const attributeEnum = schema.getType(names.groupByAttributeName(type));
    const groupable = isEnumType(attributeEnum) ? attributeEnum.getValues().map((value) => value.name) : [];
    schemas[aggregateQuerySchemaName(type)] = {
      type: 'object',
      properties: {
        count: { type: 'string', enum: ['*'] },
        ...Object.fromEntries(parts.filter(([, fields]) => fields.length > 0).map(([part, fields]) => [part, namesSchema(fields.map((field) => field.name))])),
      },
      additionalProperties: false,
    };
    schemas[groupByQuerySchemaName(type)] = namesSchema(groupable, MAX_GROUP_ATTRIBUTES);
    const attributes: Record<string, Attribute | undefined> = contentType.attributes;
    schemas[aggregateEntrySchemaName(type)] = {
      type: 'object',
      required: ['group'],
      properties: {
        group: { type: 'object', properties: Object.fromEntries(groupable.map((name) => [name, keySchema(Object.hasOwn(attributes, name) ? attributes[name] : undefined)])), additionalProperties: false },
        count: { type: 'integer' },
        ...Object.fromEntries(
          parts.map(([part, fields]) => [part, { type: 'object', nullable: true, properties: Object.fromEntries(fields.map((field) => [field.name, valueSchema(field)])), additionalProperties: false }]),
        ),
      },
      additionalProperties: false,
    };
  }
  return schemas;
};
