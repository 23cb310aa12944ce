import type { Filter } from '../storage/types';

/**
 * Big integers are stored as canonical decimal text (no leading zeros, no "-0"), and the stores
 * compare text as text: "9" > "10". A range on a big integer therefore becomes conditions on the
 * sign and the number of digits, and only for equal lengths on the text itself, where text order
 * is numeric order (reversed for negative numbers).
 */

export type RangeOperator = 'gt' | 'gte' | 'lt' | 'lte';

const NON_NEGATIVE = '^\\d';
const NEGATIVE = '^-';

const or = (parts: Filter[]): Filter => (parts.length === 1 ? parts[0] : { $or: parts });
const matches = (field: string, pattern: string): Filter => ({ [field]: { $regex: pattern } });
/** `count` digits, or a range `{low,high}` / `{low,}` written as the regex quantifier */
const digitsOf = (sign: '' | '-', quantifier: string) => `^${sign}\\d${quantifier}$`;

/** Values numerically greater than `bound` (canonical). */
const greater = (field: string, bound: string): Filter => {
  if (bound.startsWith('-')) {
    const length = bound.length - 1;
    return or([
      matches(field, NON_NEGATIVE),
      ...(length > 1 ? [matches(field, digitsOf('-', `{1,${length - 1}}`))] : []),
      { $and: [matches(field, digitsOf('-', `{${length}}`)), { [field]: { $lt: bound } }] },
    ]);
  }
  const length = bound.length;
  return or([matches(field, digitsOf('', `{${length + 1},}`)), { $and: [matches(field, digitsOf('', `{${length}}`)), { [field]: { $gt: bound } }] }]);
};

/** Values numerically less than `bound` (canonical). */
const less = (field: string, bound: string): Filter => {
  if (bound.startsWith('-')) {
    const length = bound.length - 1;
    return or([matches(field, digitsOf('-', `{${length + 1},}`)), { $and: [matches(field, digitsOf('-', `{${length}}`)), { [field]: { $gt: bound } }] }]);
  }
  const length = bound.length;
  return or([
    matches(field, NEGATIVE),
    ...(length > 1 ? [matches(field, digitsOf('', `{1,${length - 1}}`))] : []),
    { $and: [matches(field, digitsOf('', `{${length}}`)), { [field]: { $lt: bound } }] },
  ]);
};

/** `field <operator> bound` in numeric order, for canonical big-integer text. */
export const bigintRange = (field: string, operator: RangeOperator, bound: string): Filter => {
  const strict = operator === 'gt' || operator === 'gte' ? greater(field, bound) : less(field, bound);
  return operator === 'gte' || operator === 'lte' ? { $or: [strict, { [field]: { $eq: bound } }] } : strict;
};
