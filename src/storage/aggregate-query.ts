import { normalizeFindOptions } from './find-options';
import type { Accumulator, AggregateGroup, AggregateQuery, SortSpec } from './types';

/** An aggregation as both engines take it: checked once, so both refuse the same mistakes with the same message. */
export interface NormalizedAggregateQuery {
  groupBy: string[];
  accumulators: Array<[name: string, accumulator: Accumulator]>;
  sort: SortSpec;
  skip: number;
  limit: number | undefined;
}

// names become SQL aliases and MongoDB output fields: plain words only
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// a field is a dotted path of plain labels (attributes, a component's fields)
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const OPERATORS: ReadonlySet<string> = new Set(['count', 'sum', 'avg', 'min', 'max']);
// past these a query is no aggregation Folio makes
const MAX_GROUP_FIELDS = 8;
const MAX_ACCUMULATORS = 256;

export function normalizeAggregateQuery(query: AggregateQuery): NormalizedAggregateQuery {
  const groupBy = query.groupBy ?? [];
  if (groupBy.length > MAX_GROUP_FIELDS) throw new Error(`at most ${MAX_GROUP_FIELDS} groupBy fields, got ${groupBy.length}`);
  for (const field of groupBy) if (typeof field !== 'string' || !FIELD.test(field)) throw new Error(`invalid groupBy field ${JSON.stringify(field)}`);
  const accumulators = Object.entries(query.accumulators);
  if (accumulators.length > MAX_ACCUMULATORS) throw new Error(`at most ${MAX_ACCUMULATORS} accumulators, got ${accumulators.length}`);
  for (const [name, accumulator] of accumulators) {
    if (!NAME.test(name)) throw new Error(`invalid accumulator name ${JSON.stringify(name)}`);
    if (!OPERATORS.has(accumulator.operator)) throw new Error(`invalid accumulator operator ${JSON.stringify(accumulator.operator)}`);
    const reads = accumulator.operator !== 'count';
    if (reads !== (typeof accumulator.field === 'string' && FIELD.test(accumulator.field))) throw new Error(`invalid field of accumulator ${name}`);
  }
  const { sort, skip, limit } = normalizeFindOptions({ sort: query.sort, skip: query.skip, limit: query.limit });
  const known = new Set([...groupBy, ...accumulators.map(([name]) => name)]);
  for (const [key] of sort) if (!known.has(key)) throw new Error(`sort key ${key} is neither an accumulator nor a groupBy field`);
  return { groupBy, accumulators, sort, skip, limit };
}

/** The one group of an aggregation without `groupBy` over no documents: counted 0, every other value null. */
export const emptyGroup = (query: NormalizedAggregateQuery): AggregateGroup => ({
  key: [],
  values: Object.fromEntries(query.accumulators.map(([name, { operator }]) => [name, operator === 'count' ? 0 : null])),
});
