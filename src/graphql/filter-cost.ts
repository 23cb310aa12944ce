/**
 * What a `filters` argument costs, in the units of the cost limit (operation-cost.ts). A filter is
 * tested against every row the store examines and compiled into one SQL statement whose planning
 * grows with its terms (SQLite took 0.34 ms a term: an `or` of 5,000 equalities held a reader and
 * the main thread for seconds), and each relation in it is a query of its own. So every key of
 * the filter (a field, an operator, `and`/`or`/`not`, a relation) and every branch of an `and`
 * or `or` is a term costing TERM_COST, and each value of a list (`in`, `notIn`, `between`) costs
 * LIST_VALUE_COST: long `in` lists of ids are a common, cheap request. At the default `maxCost` of
 * 150,000 a filter of about 500 terms passes (160 `or` branches of `{ field: { eq: … } }`, 3 terms
 * each), and a list of 10,000 ids.
 *
 * The walk is linear in the value's size; the value is the client's input as sent (its depth is
 * bounded by the input depth limit before any plugin reads it).
 */

export const TERM_COST = 300;
export const LIST_VALUE_COST = 10;

export const filterCost = (value: unknown): number => {
  if (Array.isArray(value)) {
    let cost = 0;
    for (const item of value) cost += typeof item === 'object' && item !== null ? TERM_COST + filterCost(item) : LIST_VALUE_COST;
    return cost;
  }
  if (typeof value !== 'object' || value === null) return 0;
  let cost = 0;
  for (const key of Object.keys(value)) cost += TERM_COST + filterCost((value as Record<string, unknown>)[key]);
  return cost;
};
