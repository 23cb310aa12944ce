import type { Document } from 'mongodb';
import { UnsafeFilterError } from '../filter-guard';
import { textPatternOf } from '../text-form';
import type { Filter } from '../types';

/**
 * Folio filter clauses as aggregation expressions, for what MongoDB's query language cannot hold: `$asText`
 * needs `$expr`, and MongoDB allows no `$expr` inside `$elemMatch`, so an `$elemMatch` holding `$asText` is
 * evaluated whole as one expression over the array's elements, on the server (no document is read to answer it).
 *
 * The expressions follow the query language's rules, as the embedded engine applies them:
 * - a dotted path reads a field of an object and of each object in an array, one array level at a time (a
 *   numeric segment names a field, not a position: Folio's paths are attribute names); a path under a scalar,
 *   null or a missing field is missing;
 * - a condition on a value that is an array holds when it holds for the array or for one of its elements;
 * - ranges compare within one type (numbers with numbers, strings with strings...); null and missing match
 *   `$eq: null`; `$ne`, `$nin` and `$not` are the negations of `$eq`, `$in` and their condition;
 * - `$elemMatch` with operators alone tests each element as a value, with field conditions each object element.
 * A path is read into "slots": an array of `{ v }` documents, `{}` where the path is missing, so that a missing
 * value (which an array cannot hold) stays apart from null.
 */

type Expression = unknown;

const LOGICAL = new Set(['$and', '$or', '$nor']);

/** Variable names unique within one translation, so that nested `$map`s never shadow what an inner one reads. */
class Names {
  private count = 0;

  next(prefix: string): string {
    this.count += 1;
    return `${prefix}${this.count}`;
  }
}

export const isOperatorObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0 && Object.keys(value).every((key) => key.startsWith('$'));

const literal = (value: unknown): Document => ({ $literal: value });
const REGEX_FLAGS = /^[imsx]*$/;
const isObject = (value: Expression): Document => ({ $eq: [{ $type: value }, 'object'] });
const arrayOrEmpty = (value: Expression): Document => ({ $cond: [{ $isArray: [value] }, value, []] });
const not = (condition: Expression): Document => ({ $not: [condition] });
const and = (conditions: Expression[]): Expression => (conditions.length === 1 ? conditions[0] : { $and: conditions });
const or = (conditions: Expression[]): Expression => (conditions.length === 1 ? conditions[0] : { $or: conditions });
const isNullOrMissing = (value: Expression): Document => ({ $eq: [{ $ifNull: [value, null] }, null] });

/** Whether `test` holds for some item of the array `items`; `test` gets the item's variable reference. */
function some(items: Expression, names: Names, test: (item: string) => Expression): Document {
  const item = names.next('i');
  return { $anyElementTrue: [{ $map: { input: items, as: item, in: test(`$$${item}`) } }] };
}

/**
 * `$asText` on a value: its text form (a string as it is, a number or boolean by `$convert`, nothing for
 * anything else, an array included) against the pattern. The pattern is a literal: a text ending in `$`, or
 * just `$`, is no field path.
 */
export function textMatches(value: Expression, operand: unknown, path: string): Document {
  const pattern = textPatternOf(operand);
  if (!pattern) throw new UnsafeFilterError('$asText needs { $regex, $options? }', path);
  return {
    $regexMatch: {
      input: { $convert: { input: value, to: 'string', onError: null, onNull: null } },
      regex: literal(pattern.$regex),
      options: pattern.$options ?? '',
    },
  };
}

/** Segments of a dotted path that an aggregation field path can name. */
function segmentsOf(path: string): string[] {
  const segments = path.split('.');
  if (segments.some((segment) => segment === '' || segment.startsWith('$'))) throw new UnsafeFilterError('path segments must be field names', path);
  return segments;
}

/** The slots of `segments` read from `object`, a variable known to hold an object. */
function pathSlots(object: string, segments: string[], names: Names): Expression {
  let slots: Expression = [{ v: `${object}.${segments[0]}` }];
  for (const segment of segments.slice(1)) {
    const element = names.next('o');
    slots = {
      $reduce: {
        input: slots,
        initialValue: [],
        in: {
          $concatArrays: [
            '$$value',
            {
              $switch: {
                branches: [
                  { case: isObject('$$this.v'), then: [{ v: `$$this.v.${segment}` }] },
                  {
                    case: { $isArray: ['$$this.v'] },
                    then: { $map: { input: { $filter: { input: '$$this.v', as: element, cond: isObject(`$$${element}`) } }, as: element, in: { v: `$$${element}.${segment}` } } },
                  },
                ],
                default: [{}],
              },
            },
          ],
        },
      },
    };
  }
  return slots;
}

/** Whether `test` holds for a slot's value or, when that is an array, for one of its elements. */
function someCandidate(slots: Expression, names: Names, test: (value: string) => Expression): Document {
  return some(slots, names, (slot) => or([test(`${slot}.v`), some(arrayOrEmpty(`${slot}.v`), names, test)]));
}

const someSlot = (slots: Expression, names: Names, test: (value: string) => Expression): Document => some(slots, names, (slot) => test(`${slot}.v`));

/** The one BSON type a range bound compares with; numbers of every kind are one. */
function sameTypeAs(bound: unknown, value: string): Expression {
  if (typeof bound === 'number') return { $isNumber: value };
  const type = typeof bound === 'string' ? 'string' : typeof bound === 'boolean' ? 'bool' : Array.isArray(bound) ? 'array' : 'object';
  return { $eq: [{ $type: value }, type] };
}

function equals(slots: Expression, operand: unknown, names: Names): Expression {
  if (operand === null) return someCandidate(slots, names, isNullOrMissing);
  return someCandidate(slots, names, (value) => ({ $eq: [value, literal(operand)] }));
}

function isIn(slots: Expression, operands: unknown, path: string, names: Names): Expression {
  if (!Array.isArray(operands)) throw new UnsafeFilterError('$in and $nin need an array', path);
  const values = operands.filter((operand) => operand !== null);
  const wantsNull = values.length < operands.length;
  return someCandidate(slots, names, (value) => or([{ $in: [value, literal(values)] }, ...(wantsNull ? [isNullOrMissing(value)] : [])]));
}

function range(slots: Expression, operator: string, bound: unknown, names: Names): Expression {
  // null is the only value of its type: `$gte`/`$lte` null match a null (not a missing value, as the embedded
  // engine has it), `$gt`/`$lt` null nothing
  if (bound === null) return operator === '$gte' || operator === '$lte' ? someCandidate(slots, names, (value) => ({ $eq: [{ $type: value }, 'null'] })) : false;
  return someCandidate(slots, names, (value) => ({ $cond: [sameTypeAs(bound, value), { [operator]: [value, literal(bound)] }, false] }));
}

function regex(slots: Expression, pattern: unknown, options: unknown, path: string, names: Names): Expression {
  // options are a plain string in $regexMatch: only flags, so none can read as a `$` field path
  if (typeof pattern !== 'string' || (options !== undefined && (typeof options !== 'string' || !REGEX_FLAGS.test(options)))) {
    throw new UnsafeFilterError('$regex needs a string pattern and $options of the flags i, m, s, x', path);
  }
  return someCandidate(slots, names, (value) => ({
    $cond: [{ $eq: [{ $type: value }, 'string'] }, { $regexMatch: { input: value, regex: literal(pattern), options: options ?? '' } }, false],
  }));
}

/** `$elemMatch` on each slot holding an array. */
function elementMatch(slots: Expression, criteria: unknown, path: string, names: Names): Expression {
  if (typeof criteria !== 'object' || criteria === null || Array.isArray(criteria)) throw new UnsafeFilterError('$elemMatch needs an object', path);
  const valueForm = isOperatorObject(criteria) && !Object.keys(criteria).some((key) => LOGICAL.has(key));
  return someSlot(slots, names, (value) =>
    some(arrayOrEmpty(value), names, (element) =>
      valueForm ? condition([{ v: element }], element, criteria, path, names) : and([isObject(element), filterOn(element, criteria as Filter, names)]),
    ),
  );
}

/**
 * A field's condition (operators, or a value it equals) on its slots; `plain` is the field read as an
 * aggregation path, which `$asText` tests (it never reads through an array).
 */
function condition(slots: Expression, plain: string, spec: unknown, path: string, names: Names): Expression {
  if (!isOperatorObject(spec)) return equals(slots, spec, names);
  const parts = Object.entries(spec).map(([operator, operand]): Expression => {
    switch (operator) {
      case '$eq':
        return equals(slots, operand, names);
      case '$ne':
        return not(equals(slots, operand, names));
      case '$in':
        return isIn(slots, operand, path, names);
      case '$nin':
        return not(isIn(slots, operand, path, names));
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        return range(slots, operator, operand, names);
      case '$regex':
        return regex(slots, operand, spec.$options, path, names);
      case '$options':
        return true;
      case '$exists': {
        const exists = someSlot(slots, names, (value) => ({ $ne: [{ $type: value }, 'missing'] }));
        return operand ? exists : not(exists);
      }
      case '$size':
        return someSlot(slots, names, (value) => ({ $and: [{ $isArray: [value] }, { $eq: [{ $size: arrayOrEmpty(value) }, literal(operand)] }] }));
      case '$elemMatch':
        return elementMatch(slots, operand, path, names);
      case '$asText':
        return textMatches(plain, operand, path);
      case '$not':
        if (!isOperatorObject(operand)) throw new UnsafeFilterError('$not needs an object of operators', path);
        return not(condition(slots, plain, operand, path, names));
      default:
        throw new UnsafeFilterError(`operator ${operator} not allowed on a field`, path);
    }
  });
  return and(parts);
}

/** Whether a condition reads its field's slots: all but `$asText`, which reads the plain path. */
const readsSlots = (spec: unknown): boolean =>
  !isOperatorObject(spec) || Object.entries(spec).some(([operator, operand]) => operator !== '$asText' && (operator !== '$not' || readsSlots(operand)));

/** Whether the object in variable `object` matches `filter`, as a document would. */
function filterOn(object: string, filter: Filter, names: Names): Expression {
  const parts = Object.entries(filter).map(([key, value]): Expression => {
    if (LOGICAL.has(key)) {
      if (!Array.isArray(value)) throw new UnsafeFilterError(`${key} needs an array`, key);
      const branches = value.map((branch) => filterOn(object, branch as Filter, names));
      if (key === '$and') return branches.length === 0 ? true : and(branches);
      const any = branches.length === 0 ? false : or(branches);
      return key === '$or' ? any : not(any);
    }
    const segments = segmentsOf(key);
    if (!readsSlots(value)) return condition([], `${object}.${key}`, value, key, names);
    const slots = names.next('s');
    return { $let: { vars: { [slots]: pathSlots(object, segments, names) }, in: condition(`$$${slots}`, `${object}.${key}`, value, key, names) } };
  });
  return parts.length === 0 ? true : and(parts);
}

/** `{ [path]: { $elemMatch: criteria } }` as a query the server runs: an `$expr` on the document. */
export function elemMatchExpression(path: string, criteria: unknown): Document {
  const names = new Names();
  const slots = pathSlots('$$ROOT', segmentsOf(path), names);
  return { $expr: elementMatch(slots, criteria, path, names) };
}
