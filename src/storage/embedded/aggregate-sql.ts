import type { NormalizedAggregateQuery } from '../aggregate-query';
import type { Accumulator, AggregateGroup, AggregateValue, StoredValue } from '../types';
import { extractOf, type Sql } from './compile-filter';
import { isPlainPath, KIND, type PathKinds } from './path-kinds';

/**
 * An aggregation as one SQL statement over a compiled selection (`FROM … WHERE …`): GROUP BY on the group
 * fields' `json_extract`, which the expression indexes `[_status, locale, field, id]` give in order (a count by
 * category reads the index alone), and SQL's aggregate functions, so no document leaves SQLite.
 *
 * `json_type` tells values apart where SQL would not (a boolean reads as 1, MongoDB's $sum leaves it out), but it
 * reads the document: a path that only ever held numbers (or booleans: path-kinds) needs no such test, and is
 * summed, or grouped, from its index alone. Summing `views` over 7.5 % of 200,000 articles took 108 ms with the
 * test, 1.75 ms without.
 */

const LIMIT_NONE = -1;

/** `json_extract`, and `json_type` of the same path: SQL sees `true` as 1 and a string as text, MongoDB tells them apart */
function pathOf(field: string): { extract: string; type: string } {
  const extract = extractOf(field);
  if (!extract) throw new Error(`the field ${field} cannot be aggregated`);
  return { extract, type: extract.replace('json_extract', 'json_type') };
}

const NUMBER_TYPES = "('integer', 'real')";

/** Whether every value `field` ever held, where it held one, is of the kinds `allowed` (null aside). */
const onlyHeld = (kinds: PathKinds, field: string, allowed: number): boolean => isPlainPath(kinds, field) && (kinds.of(field) & ~(allowed | KIND.null)) === 0;

/** What an accumulator reads of a document, and the aggregate function over that value (`?` stands for it). */
function accumulatorParts({ operator, field, integerText }: Accumulator, kinds: PathKinds): { read: string; aggregate: string } {
  if (operator === 'count') return { read: '', aggregate: 'count(*)' };
  const { extract, type } = pathOf(field!);
  // sum and avg read numbers (or integer text) alone, as MongoDB's $sum and $avg leave other values out
  const readable = integerText
    ? `CASE WHEN ${type} = 'text' THEN ${extract} END`
    : onlyHeld(kinds, field!, KIND.number)
      ? extract
      : `CASE WHEN ${type} IN ${NUMBER_TYPES} THEN ${extract} END`;
  switch (operator) {
    case 'sum':
      return { read: readable, aggregate: integerText ? 'folio_integer_text_sum(?)' : 'sum(?)' };
    case 'avg':
      return { read: readable, aggregate: integerText ? 'avg(CAST(? AS REAL))' : 'avg(?)' };
    default:
      // min(NULL…) is NULL: a group without a value answers null
      return { read: extract, aggregate: `${operator}(?)` };
  }
}

const groupColumn = (index: number): string => `g${index}`;
const booleanColumn = (index: number): string => `b${index}`;
const valueColumn = (name: string): string => `v_${name}`;
const readColumn = (name: string): string => `r_${name}`;

/**
 * `materialized`: the values read in a selection of their own and grouped over it. Where SQLite groups apart (in
 * a temporary b-tree, the index it reads not being in the group's order) it reads each match's document for them,
 * even from an index that holds them all; from a selection of their own it reads that index alone (ensure-indexes
 * gives number and date fields' indexes the group keys). Group by category over 7.5 % of 200,000 articles by
 * views: 65 ms reading the documents, 6 ms from the index. Grouped in an index's order, SQLite reads it alone
 * either way, and the plain statement streams (a count by category of 100,000 articles: 22 ms, 72 ms materialized).
 */
export function aggregateSql(selection: Sql, query: NormalizedAggregateQuery, kinds: PathKinds, materialized = false): Sql {
  const grouping = query.groupBy.length > 0;
  const apart = materialized && grouping;
  // a missing field and null are one group (MongoDB's): iif leaves both 0; a path that never held a boolean needs
  // none, and is left out of GROUP BY and ORDER BY, where a constant would keep SQLite from grouping in an index's order
  const told = query.groupBy.map((field) => !(isPlainPath(kinds, field) && (kinds.of(field) & KIND.boolean) === 0));
  const groups = query.groupBy.flatMap((field, index) => {
    const { extract, type } = pathOf(field);
    return [`${extract} AS ${groupColumn(index)}`, `${told[index] ? `iif(${type} IN ('true', 'false'), 1, 0)` : '0'} AS ${booleanColumn(index)}`];
  });
  const parts = query.accumulators.map(([name, accumulator]) => ({ name, ...accumulatorParts(accumulator, kinds) }));
  const values = parts.map(({ name, read, aggregate }) => `${aggregate.replace('?', apart ? readColumn(name) : read)} AS ${valueColumn(name)}`);
  const groupBy = query.groupBy.flatMap((_, index) => (told[index] ? [groupColumn(index), booleanColumn(index)] : [groupColumn(index)]));
  // a group's value in MongoDB's order: null, numbers, text, then booleans (which SQL reads as 0 and 1)
  const groupOrder = (index: number, direction: string): string =>
    told[index] ? `${booleanColumn(index)} ${direction}, ${groupColumn(index)} ${direction}` : `${groupColumn(index)} ${direction}`;
  const termOf = (key: string, direction: string): string => {
    const index = query.groupBy.indexOf(key);
    return index >= 0 ? groupOrder(index, direction) : `${valueColumn(key)} ${direction}`;
  };
  const order = [
    ...query.sort.map(([key, direction]) => termOf(key, direction === 1 ? 'ASC' : 'DESC')),
    ...query.groupBy.map((_, index) => groupOrder(index, 'ASC')),
  ];
  const reads = parts.filter(({ read }) => read !== '').map(({ name, read }) => `${read} AS ${readColumn(name)}`);
  const from = apart
    ? `WITH m AS MATERIALIZED (SELECT ${[...groups, ...reads].join(', ')} ${selection.sql}) SELECT ${[...groupBy, ...values].join(', ')} FROM m`
    : `SELECT ${[...groups, ...values].join(', ')} ${selection.sql}`;
  const sql =
    from +
    (grouping ? ` GROUP BY ${groupBy.join(', ')}` : '') +
    (order.length > 0 ? ` ORDER BY ${order.join(', ')}` : '') +
    ` LIMIT ${query.limit ?? LIMIT_NONE} OFFSET ${query.skip}`;
  return { sql, params: selection.params, heavy: true };
}

/** A row of aggregateSql's statement as a group. */
export function groupOfRow(row: Record<string, unknown>, query: NormalizedAggregateQuery): AggregateGroup {
  const key = query.groupBy.map((_, index): StoredValue => {
    const value = row[groupColumn(index)] as StoredValue;
    return row[booleanColumn(index)] === 1 ? value === 1 : value;
  });
  const values = Object.fromEntries(query.accumulators.map(([name]) => [name, row[valueColumn(name)] as AggregateValue]));
  return { key, values };
}
