import type { VariableValues } from '@graphql-tools/utils';
import { isObjectType, type FieldNode, type GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';
import type { ContentType, Models } from '../models/types';
import type { Accumulator, AggregateGroup, AggregateValue, SortSpec, StoredValue } from '../storage/types';
import * as names from '../sdl/naming';
import type { ShadowCrud } from '../sdl/shadow-crud';
import { aggregationFieldsOf, combinableOf, MAX_GROUP_ATTRIBUTES, type AggregatableField, type GroupableField } from '../sdl/aggregation-fields';
import { badUserInput, forbiddenError } from '../errors/graphql-errors';
import { bigintOfSortKey, bigintSortField } from '../documents/bigint-sort-key';
import { allOf } from '../documents/document-reads';
import { parsePagination } from '../query/parse-pagination';
import type { FolioContext } from '../context';
import { subFieldsOf } from './selected-fields';
import { readConnection, type Connection, type ConnectionSource } from './connection-read';

/**
 * `aggregate` and `groupBy` of a collection type's connection (issue 36). Each is one store aggregation over
 * the connection's scope and filter, for the values its selection asks (looked ahead, so `sum { views }` does
 * not sum every field). A group's entries carry the aggregates their `connection { aggregate }` asks, computed
 * in the same aggregation as the groups: a count by category is one store call, not one per category.
 */

type Args = Record<string, unknown>;
type Part = 'sum' | 'avg' | 'min' | 'max';
const PARTS: readonly Part[] = ['sum', 'avg', 'min', 'max'];
const PART_TYPE = { sum: 'Sum', avg: 'Avg', min: 'Min', max: 'Max' } as const;
const isPart = (name: string): name is Part => (PARTS as readonly string[]).includes(name);

/** The aggregator's values an answer asks, as store accumulators by name. */
type Wanted = Map<string, { part: Part | 'count'; field?: AggregatableField }>;

/** What a group field groups by: its fields, its entries' type, and the sort keys naming the fields. */
interface Grouping {
  fields: GroupableField[];
  entryType: string;
  /** the sort keys naming grouped fields, as a refusal words them */
  keys: string;
  keyOf: (key: string) => GroupableField | undefined;
}

const accumulatorName = (part: Part, field: string): string => `${part}__${field}`;

const accumulatorOf = (part: Part | 'count', field: AggregatableField | undefined): Accumulator => {
  if (part === 'count' || !field) return { operator: 'count' };
  if (field.kind !== 'biginteger') return { operator: part, field: field.path };
  // big integers are decimal text: summed exactly as text, compared through their sort key
  return part === 'min' || part === 'max' ? { operator: part, field: bigintSortField(field.path) } : { operator: part, field: field.path, integerText: true };
};

const valueOf = (part: Part, field: AggregatableField, value: AggregateValue): AggregateValue =>
  field.kind === 'biginteger' && (part === 'min' || part === 'max') && typeof value === 'string' ? bigintOfSortKey(value) : value;

/** The key of a group as `key: String` answers it. */
const keyText = (value: StoredValue): string | null => (value === null ? null : typeof value === 'string' ? value : JSON.stringify(value));

export const aggregateResolvers = (models: Models, shadowCrud: ShadowCrud, contentType: ContentType) => {
  const type = names.typeName(contentType);
  const { aggregatable, groupable } = aggregationFieldsOf(models, shadowCrud, contentType);
  const fieldsByName = new Map(aggregatable.map((field) => [field.name, field]));

  const objectType = (info: GraphQLResolveInfo, name: string): GraphQLObjectType | undefined => {
    const found = info.schema.getType(name);
    return isObjectType(found) ? found : undefined;
  };

  /** What `nodes` (fields of `ArticleAggregator`) select, added to `into`. */
  const collectWanted = (info: GraphQLResolveInfo, variables: VariableValues, nodes: readonly FieldNode[], into: Wanted): void => {
    const aggregator = objectType(info, names.aggregatorName(type));
    if (!aggregator) return;
    for (const [, selected] of subFieldsOf(info, variables, aggregator, nodes)) {
      const part = selected[0].name.value;
      if (part === 'count') into.set('count', { part: 'count' });
      const partType = isPart(part) ? objectType(info, names.aggregatorName(type, PART_TYPE[part])) : undefined;
      if (!partType || !isPart(part)) continue;
      for (const [, fieldNodes] of subFieldsOf(info, variables, partType, selected)) {
        const field = fieldsByName.get(fieldNodes[0].name.value);
        if (field) into.set(accumulatorName(part, field.name), { part, field });
      }
    }
  };

  /** The `aggregate` value of a group or connection: what default resolvers read for count, sum { … }, … */
  const aggregatorValue = (wanted: Wanted, values: AggregateGroup['values']): Record<string, unknown> => {
    const answer: Record<string, unknown> = { count: values.count ?? 0 };
    for (const part of PARTS) answer[part] = {};
    for (const [name, { part, field }] of wanted) {
      if (part !== 'count' && field) (answer[part] as Record<string, unknown>)[field.name] = valueOf(part, field, values[name] ?? null);
    }
    return answer;
  };

  const accumulatorsOf = (wanted: Wanted): Record<string, Accumulator> =>
    Object.fromEntries([...wanted].map(([name, { part, field }]) => [name, accumulatorOf(part, field)]));

  /**
   * `count`, `sum.views`… with `:asc` or `:desc`, and the keys of the grouped fields (`key` on a single attribute's
   * groups, the attribute itself on a combination's): the groups' order, and the accumulators it reads.
   */
  const groupSort = (grouping: Grouping, sort: unknown, wanted: Wanted): SortSpec => {
    const of = grouping.fields.map((field) => field.name).join(', ');
    const keys = sort === undefined || sort === null ? [] : Array.isArray(sort) ? sort : [sort];
    return keys.map((entry): [string, 1 | -1] => {
      const [key, direction = 'asc'] = String(entry).split(':');
      const order = direction.toLowerCase() === 'desc' ? -1 : direction.toLowerCase() === 'asc' ? 1 : undefined;
      if (order === undefined) throw badUserInput(`Invalid sort direction ${direction} of ${of}'s groups: asc or desc`, { key: String(entry) });
      const grouped = grouping.keyOf(key);
      if (grouped) return [grouped.path, order];
      if (key === 'count') {
        wanted.set('count', { part: 'count' });
        return ['count', order];
      }
      const [part, name] = key.split('.');
      const aggregated = name === undefined ? undefined : fieldsByName.get(name);
      if (!isPart(part) || !aggregated || ((part === 'sum' || part === 'avg') && !aggregated.numeric)) {
        throw badUserInput(`Invalid sort key ${key} of ${of}'s groups: ${grouping.keys}, count, or sum/avg of a number field, min/max of a field (sum.views)`, { key: String(entry) });
      }
      const accumulator = accumulatorName(part, aggregated.name);
      wanted.set(accumulator, { part, field: aggregated });
      return [accumulator, order];
    });
  };

  /** The aggregates the entries' `connection { aggregate { … } }` select (`entryType`: the entries' type), and count. */
  const wantedOfEntries = (info: GraphQLResolveInfo, entryType: string): Wanted => {
    const variables: VariableValues = { coerced: info.variableValues, sources: {} };
    const wanted: Wanted = new Map([['count', { part: 'count' }]]);
    const entry = objectType(info, entryType);
    const collection = objectType(info, names.entityCollectionName(type));
    if (entry && collection) {
      for (const [, connections] of subFieldsOf(info, variables, entry, info.fieldNodes)) {
        if (connections[0].name.value !== 'connection') continue;
        for (const [, aggregates] of subFieldsOf(info, variables, collection, connections)) {
          if (aggregates[0].name.value === 'aggregate') collectWanted(info, variables, aggregates, wanted);
        }
      }
    }
    return wanted;
  };

  /**
   * The groups of `fields` (one store aggregation, however many fields): each with its values and the source of its
   * `connection`, the connection's filter narrowed to them, its aggregates computed with the groups.
   */
  const groupsOf = async (source: ConnectionSource, args: Args, context: FolioContext, info: GraphQLResolveInfo, grouping: Grouping) => {
    const { fields } = grouping;
    const wanted = wantedOfEntries(info, grouping.entryType);
    const sort = groupSort(grouping, args.sort, wanted);
    const page = parsePagination(args.pagination as Args | undefined, context.pageLimits);
    const groups = await context.services.documents.aggregate(contentType, source.scope, source.filter, {
      groupBy: fields.map((field) => field.path),
      accumulators: accumulatorsOf(wanted),
      sort,
      skip: page.skip,
      limit: page.limit,
    });
    return groups.map((group) => {
      const filter = allOf([source.filter, ...fields.map((field, index) => ({ [field.path]: group.key[index] }))]);
      return { values: group.key, source: { contentType, scope: source.scope, filter, aggregate: aggregatorValue(wanted, group.values) } satisfies ConnectionSource };
    });
  };

  const groupResolver = (field: GroupableField) => async (source: ConnectionSource, args: Args, context: FolioContext, info: GraphQLResolveInfo) => {
    const grouping: Grouping = { fields: [field], entryType: names.groupByEntryName(type), keys: 'key', keyOf: (key) => (key === 'key' ? field : undefined) };
    const groups = await groupsOf(source, args, context, info, grouping);
    return groups.map(({ values: [value], source: entrySource }) => ({ key: keyText(value), source: entrySource }));
  };

  const combinable = new Map(combinableOf(groupable).map((field) => [field.name, field]));

  /** `groups(by: [category, kind])`: the combinations of several attributes' values, keyed by attribute. */
  const combinationsResolver = async (parent: Connection, args: Args, context: FolioContext, info: GraphQLResolveInfo) => {
    const by = [...new Set(Array.isArray(args.by) ? (args.by as string[]) : [args.by as string])];
    if (by.length === 0) throw badUserInput('Invalid by: groups takes 1 attribute or more (aggregate answers the whole connection)', { key: 'by' });
    if (by.length > MAX_GROUP_ATTRIBUTES) throw badUserInput(`Invalid by: groups takes at most ${MAX_GROUP_ATTRIBUTES} attributes, got ${by.length}`, { key: 'by' });
    const fields = by.map((name) => combinable.get(name) as GroupableField);
    // `by` is a value, not a selection: the @auth a relation's group field carries is checked here
    for (const field of fields) if (field.target && !context.principal.can(names.permissionFor(field.target, 'find'))) throw forbiddenError('Forbidden access');
    const grouping: Grouping = { fields, entryType: names.groupByCombinationName(type), keys: 'an attribute of by', keyOf: (key) => (by.includes(key) ? combinable.get(key) : undefined) };
    const groups = await groupsOf(parent.source, args, context, info, grouping);
    return groups.map(({ values, source }) => ({ key: Object.fromEntries(fields.map((field, index) => [field.name, keyText(values[index])])), source }));
  };

  const entryConnection = (entry: { source: ConnectionSource }, args: Args, context: FolioContext, info: GraphQLResolveInfo) => readConnection(context, entry.source, args, info);

  return {
    [names.entityCollectionName(type)]: {
      aggregate: async (parent: Connection, _: Args, context: FolioContext, info: GraphQLResolveInfo) => {
        if (parent.source.aggregate) return parent.source.aggregate;
        const wanted: Wanted = new Map([['count', { part: 'count' }]]);
        collectWanted(info, { coerced: info.variableValues, sources: {} }, info.fieldNodes, wanted);
        const { scope, filter } = parent.source;
        const [group] = await context.services.documents.aggregate(contentType, scope, filter, { accumulators: accumulatorsOf(wanted) });
        return aggregatorValue(wanted, group.values);
      },
      groupBy: (parent: Connection) => parent.source,
      ...(combinable.size > 0 ? { groups: combinationsResolver } : {}),
    },
    ...(groupable.length > 0
      ? {
          [names.groupByName(type)]: Object.fromEntries(groupable.map((field) => [field.name, groupResolver(field)])),
          [names.groupByEntryName(type)]: { connection: entryConnection },
          ...(combinable.size > 0 ? { [names.groupByCombinationName(type)]: { connection: entryConnection } } : {}),
        }
      : {}),
  };
};
