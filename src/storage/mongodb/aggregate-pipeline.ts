import { Decimal128, type Document } from 'mongodb';
import type { NormalizedAggregateQuery } from '../aggregate-query';
import type { Accumulator, AggregateGroup, AggregateValue, StoredValue } from '../types';

/**
 * An aggregation as a MongoDB pipeline: `$match` (the translated filter), one `$group` computing every
 * accumulator on the server, then the groups' order and page. Pure, like translate-query.
 */

const groupKey = (index: number): string => `g${index}`;
const valueKey = (name: string): string => `v_${name}`;
// per sum: how many values it read, so that a sum of none answers null as SQL's does ($sum answers 0)
const readKey = (name: string): string => `n_${name}`;

const isText = (path: string): Document => ({ $eq: [{ $type: path }, 'string'] });

function accumulatorStages(name: string, { operator, field, integerText }: Accumulator): Document {
  if (operator === 'count') return { [valueKey(name)]: { $sum: 1 } };
  const path = `$${field}`;
  switch (operator) {
    case 'sum':
      return integerText
        ? { [valueKey(name)]: { $sum: { $cond: [isText(path), { $toDecimal: path }, null] } }, [readKey(name)]: { $sum: { $cond: [isText(path), 1, 0] } } }
        : { [valueKey(name)]: { $sum: path }, [readKey(name)]: { $sum: { $cond: [{ $isNumber: path }, 1, 0] } } };
    case 'avg':
      return { [valueKey(name)]: { $avg: integerText ? { $cond: [isText(path), { $toDouble: path }, null] } : path } };
    default:
      return { [valueKey(name)]: { [`$${operator}`]: path } };
  }
}

export function aggregatePipeline(match: Document, query: NormalizedAggregateQuery): Document[] {
  // $ifNull: a missing field would leave its key out of `_id`, a group apart from null's
  const id = query.groupBy.length === 0 ? null : Object.fromEntries(query.groupBy.map((field, index) => [groupKey(index), { $ifNull: [`$${field}`, null] }]));
  const group = Object.assign({ _id: id }, ...query.accumulators.map(([name, accumulator]) => accumulatorStages(name, accumulator))) as Document;
  const sort: Document = {};
  for (const [key, direction] of query.sort) {
    const index = query.groupBy.indexOf(key);
    sort[index >= 0 ? `_id.${groupKey(index)}` : valueKey(key)] = direction;
  }
  query.groupBy.forEach((_, index) => {
    sort[`_id.${groupKey(index)}`] ??= 1;
  });
  return [
    { $match: match },
    { $group: group },
    ...(Object.keys(sort).length > 0 ? [{ $sort: sort }] : []),
    ...(query.skip > 0 ? [{ $skip: query.skip }] : []),
    ...(query.limit !== undefined ? [{ $limit: query.limit }] : []),
  ];
}

/** A big integers' sum: Decimal128 on MongoDB, a number where the server has no decimals (the test server's). */
const integerTextOf = (value: unknown): string => (value instanceof Decimal128 ? value.toString() : BigInt(Math.round(Number(value))).toString());

/** A `$group` result as a group. */
export function groupOfResult(result: Document, query: NormalizedAggregateQuery): AggregateGroup {
  const id = result._id as Record<string, StoredValue> | null;
  const key = query.groupBy.map((_, index) => id?.[groupKey(index)] ?? null);
  const values = Object.fromEntries(
    query.accumulators.map(([name, { operator, integerText }]): [string, AggregateValue] => {
      const value = result[valueKey(name)] as unknown;
      if (operator === 'sum' && result[readKey(name)] === 0) return [name, null];
      if (operator === 'sum' && integerText) return [name, integerTextOf(value)];
      return [name, value instanceof Decimal128 ? Number(value.toString()) : ((value ?? null) as AggregateValue)];
    }),
  );
  return { key, values };
}
