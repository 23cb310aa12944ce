import { isEnumType, isObjectType, type GraphQLSchema } from 'graphql';
import type { ContentType } from '../models/types';
import * as names from '../sdl/naming';
import { MAX_GROUP_ATTRIBUTES, whyNotGroupable } from '../sdl/aggregation-fields';
import { badUserInput } from '../errors/graphql-errors';
import type { RouteOperation } from './content-routes';
import { rootArgumentsOf } from './operation-text';
import { parseRestSort } from './rest-sort';

/**
 * REST's aggregation on a list route (issue 36), Directus-like keys:
 * `aggregate[count]=*&aggregate[sum][0]=views&…&groupBy[0]=category&groupBy[1]=kind&sort=count:desc&pagination[pageSize]=5`,
 * read against the schema's `ArticleAggregator…` and `ArticleGroupByAttribute` types (what GraphQL offers, REST
 * offers), compiled onto `articles_connection { aggregate { … } }` or `{ groups(by: [category, kind], sort,
 * pagination) { key { category kind } connection { aggregate { … } } } }` (one store aggregation, however many
 * attributes), and the answer shaped as one entry per combination:
 * `{ group: { category: "<documentId>", kind: "news" }, count, sum: { views }, … }`.
 */

const PARTS = ['sum', 'avg', 'min', 'max'] as const;
type Part = (typeof PARTS)[number];
const PART_TYPE = { sum: 'Sum', avg: 'Avg', min: 'Min', max: 'Max' } as const;

export interface RestAggregation {
  count: boolean;
  parts: Record<Part, string[]>;
  /** the attributes the groups are of, none without groupBy */
  groupBy: string[];
  /** the groups' order, as `groups`' `sort` argument takes it (`count:desc`, `sum.views:asc`, `category:asc`) */
  sort: string[];
}

const refusal = (message: string, key: string, param: string) => badUserInput(message, { key, path: null, source: 'query', param });

const namesOf = (value: unknown, param: string): string[] => {
  if (typeof value === 'string') return value.split(',').map((part) => part.trim()).filter(Boolean);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.flatMap((item) => namesOf(item, param));
  throw refusal(`Invalid ${param}: expected attribute names`, param, param);
};

const fieldsOf = (schema: GraphQLSchema, type: string): Set<string> => {
  const found = schema.getType(type);
  return new Set(isObjectType(found) ? Object.keys(found.getFields()) : []);
};

const enumValuesOf = (schema: GraphQLSchema, type: string): Set<string> => {
  const found = schema.getType(type);
  return new Set(isEnumType(found) ? found.getValues().map((value) => value.name) : []);
};

/** Why `name` cannot be aggregated by `part`, naming it. */
const aggregateRefusal = (contentType: ContentType, part: Part, name: string): string => {
  const attribute = Object.hasOwn(contentType.attributes, name) ? contentType.attributes[name] : undefined;
  if (attribute && (attribute.private === true || attribute.type === 'password')) return `Invalid key ${name}: private attributes cannot be aggregated`;
  if (attribute?.type === 'dynamiczone') return `Invalid key ${name}: nothing inside a dynamic zone is aggregated`;
  if (part === 'sum' || part === 'avg') return `Invalid key ${name}: ${part} takes number attributes (integer, biginteger, float, decimal) and a single component's number fields (seo_score)`;
  return `Invalid key ${name}: ${part} takes number, date, time, datetime and string attributes`;
};

export const parseRestAggregation = (schema: GraphQLSchema, contentType: ContentType, query: { aggregate?: unknown; groupBy?: unknown; sort?: unknown }): RestAggregation => {
  const type = names.typeName(contentType);
  const parts: Record<Part, string[]> = { sum: [], avg: [], min: [], max: [] };
  let count = false;
  const { aggregate } = query;
  if (aggregate !== undefined) {
    if (typeof aggregate !== 'object' || aggregate === null || Array.isArray(aggregate)) throw refusal('Invalid aggregate: expected aggregate[count]=* or aggregate[sum][0]=<attribute>', 'aggregate', 'aggregate');
    for (const [key, value] of Object.entries(aggregate)) {
      if (key === 'count') count = true;
      else if ((PARTS as readonly string[]).includes(key)) {
        const part = key as Part;
        const offered = fieldsOf(schema, names.aggregatorName(type, PART_TYPE[part]));
        for (const name of namesOf(value, `aggregate[${part}]`)) {
          if (!offered.has(name)) throw refusal(aggregateRefusal(contentType, part, name), name, 'aggregate');
          if (!parts[part].includes(name)) parts[part].push(name);
        }
      } else throw refusal(`Invalid key ${key}: aggregate takes count, sum, avg, min and max`, key, 'aggregate');
    }
  }
  const groupBy = [...new Set(query.groupBy === undefined ? [] : namesOf(query.groupBy, 'groupBy'))];
  if (groupBy.length > MAX_GROUP_ATTRIBUTES) throw refusal(`Invalid groupBy: at most ${MAX_GROUP_ATTRIBUTES} attributes, got ${groupBy.length}`, 'groupBy', 'groupBy');
  const offered = enumValuesOf(schema, names.groupByAttributeName(type));
  for (const name of groupBy) {
    if (offered.has(name)) continue;
    const why = whyNotGroupable(contentType, name);
    throw refusal(why ? `Invalid key ${name}: ${why}` : `Invalid key ${name}`, name, 'groupBy');
  }
  const sort = groupBy.length === 0 ? [] : groupSort(parseRestSort(query.sort) ?? [], groupBy);
  return { count, parts, groupBy, sort };
};

/** `count:desc`, `sum.views`, or a groupBy attribute (`category:asc`) as the groups' sort keys. */
const groupSort = (entries: string[], groupBy: string[]): string[] =>
  entries.map((entry) => {
    const [key, direction = 'asc'] = entry.split(':');
    const [part] = key.split('.');
    if (groupBy.includes(key) || key === 'count' || (PARTS as readonly string[]).includes(part)) return `${key}:${direction}`;
    throw refusal(`Invalid key ${key}: aggregated groups sort by count, an aggregate (sum.views) or a groupBy attribute`, key, 'sort');
  });

const aggregateSelection = (aggregation: RestAggregation): string => {
  const parts = PARTS.filter((part) => aggregation.parts[part].length > 0).map((part) => `${part} { ${aggregation.parts[part].join(' ')} }`);
  return [...(aggregation.count ? ['count'] : []), ...parts].join(' ');
};

/** The compiled operation: the list route's root field, its scope and filters, selecting the aggregation alone. */
export const aggregationText = (operation: RouteOperation, aggregation: RestAggregation): string => {
  const types = new Map(operation.field.args.map((arg) => [arg.name, String(arg.type)]));
  // the root's sort and pagination page its nodes, which are not read: the groups take them
  const args = rootArgumentsOf(operation).filter((name) => name !== 'sort' && name !== 'pagination');
  const selected = aggregateSelection(aggregation);
  const definitions = args.map((name) => `$${name}: ${types.get(name)}`);
  let inner: string;
  if (aggregation.groupBy.length === 0) inner = `aggregate { ${selected || 'count'} }`;
  else {
    definitions.push('$groupSort: [String]', `$groupPagination: ${names.SHARED_NAMES.paginationArg}`);
    // the attributes are literal: the key's fields are selected, so a relation's @auth is checked as a selection's
    const key = `key { ${aggregation.groupBy.join(' ')} }`;
    const entry = selected ? `${key} connection { aggregate { ${selected} } }` : key;
    inner = `groups(by: [${aggregation.groupBy.join(', ')}], sort: $groupSort, pagination: $groupPagination) { ${entry} }`;
  }
  const call = `${operation.field.name}(${args.map((name) => `${name}: $${name}`).join(', ')})`;
  return `query Rest_${operation.field.name}_aggregate(${definitions.join(', ')}) { data: ${call} { ${inner} } }`;
};

type Values = { count?: number } & Partial<Record<Part, Record<string, unknown>>>;

/** A group's key as REST answers it: numbers and booleans as such, a relation by its documentId. */
const typedKey = (contentType: ContentType, field: string, key: string | null): unknown => {
  if (key === null) return null;
  const attribute = Object.hasOwn(contentType.attributes, field) ? contentType.attributes[field] : undefined;
  switch (attribute?.type) {
    case 'integer':
    case 'float':
    case 'decimal':
      return Number(key);
    case 'boolean':
      return key === 'true';
    default:
      return key;
  }
};

const entryOf = (aggregation: RestAggregation, group: Record<string, unknown>, values: Values | undefined): Record<string, unknown> => {
  const entry: Record<string, unknown> = { group };
  if (aggregation.count) entry.count = values?.count ?? 0;
  for (const part of PARTS) if (aggregation.parts[part].length > 0) entry[part] = values?.[part] ?? null;
  return entry;
};

/** The operation's `data` as REST's entries. */
export const shapeAggregation = (contentType: ContentType, aggregation: RestAggregation, data: unknown): Array<Record<string, unknown>> => {
  const connection = data as { aggregate?: Values; groups?: Array<{ key: Record<string, string | null>; connection?: { aggregate: Values } }> };
  const { groupBy } = aggregation;
  if (groupBy.length === 0) return [entryOf(aggregation, {}, connection.aggregate)];
  return (connection.groups ?? []).map((entry) =>
    entryOf(aggregation, Object.fromEntries(groupBy.map((name) => [name, typedKey(contentType, name, entry.key[name] ?? null)])), entry.connection?.aggregate),
  );
};
