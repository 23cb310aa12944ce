import { bigintCondition, operatorCondition } from '../../src/query/filter-operators';

/** Each operator family on its own: what store condition it makes, and what it refuses. */

const MAX = 20;
const condition = (operator: Parameters<typeof operatorCondition>[0], value: unknown, type: Parameters<typeof operatorCondition>[2] = 'string') =>
  operatorCondition(operator, value, type, `title.${operator}`, MAX);
const messageOf = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('filter operators', () => {
  test('comparisons', () => {
    expect(condition('eq', 'a')).toEqual({ $eq: 'a' });
    expect(condition('ne', 'a')).toEqual({ $ne: 'a' });
    expect(condition('gte', 3, 'integer')).toEqual({ $gte: 3 });
    expect(condition('lt', 3, 'integer')).toEqual({ $lt: 3 });
  });

  test('lists: in, notIn, between (exactly two values)', () => {
    expect(condition('in', ['a', 'b'])).toEqual({ $in: ['a', 'b'] });
    expect(condition('notIn', ['a'])).toEqual({ $nin: ['a'] });
    expect(condition('between', [1, 5], 'integer')).toEqual({ $gte: 1, $lte: 5 });
    expect(messageOf(() => condition('in', 'a'))).toBe('Filter operator in at title.in needs an array');
    expect(messageOf(() => condition('between', [1, 2, 3], 'integer'))).toBe('Filter operator between at title.between needs exactly two values');
  });

  test('presence takes a boolean, whatever the field type', () => {
    expect(condition('null', true, 'datetime')).toEqual({ $eq: null });
    expect(condition('null', false)).toEqual({ $ne: null });
    expect(condition('notNull', true)).toEqual({ $ne: null });
    expect(condition('notNull', false)).toEqual({ $eq: null });
  });

  test('text: anchored, escaped regular expressions, case-insensitive forms with the i flag', () => {
    expect(condition('contains', 'a.b')).toEqual({ $regex: 'a\\.b' });
    expect(condition('containsi', 'A')).toEqual({ $regex: 'A', $options: 'i' });
    expect(condition('notContainsi', 'x')).toEqual({ $not: { $regex: 'x', $options: 'i' } });
    expect(condition('startsWith', '(x')).toEqual({ $regex: '^\\(x' });
    expect(condition('endsWithi', 'z$')).toEqual({ $regex: 'z\\$$', $options: 'i' });
    expect(condition('eqi', 'Hi')).toEqual({ $regex: '^Hi$', $options: 'i' });
    expect(condition('nei', 'Hi')).toEqual({ $not: { $regex: '^Hi$', $options: 'i' } });
    expect(messageOf(() => condition('contains', { a: 1 }, 'json'))).toBe('Filter value at title.contains must be a string, a number or a boolean');
    expect(messageOf(() => condition('contains', 'x'.repeat(MAX + 1)))).toBe(`Filter value at title.contains is longer than ${MAX} characters`);
  });

  test("text on what the store holds as other than text: the value's text form through $asText; dates as written", () => {
    expect(condition('contains', 5, 'integer')).toEqual({ $asText: { $regex: '5' } });
    expect(condition('notContainsi', 1.5, 'float')).toEqual({ $not: { $asText: { $regex: '1\\.5', $options: 'i' } } });
    expect(condition('startsWith', true, 'boolean')).toEqual({ $asText: { $regex: '^true' } });
    expect(condition('eqi', 'A', 'json')).toEqual({ $asText: { $regex: '^A$', $options: 'i' } });
    expect(condition('startsWith', '2024-0', 'date')).toEqual({ $regex: '^2024-0' });
  });

  test('ranges on booleans: false before true, as the booleans in range', () => {
    expect(condition('gt', false, 'boolean')).toEqual({ $in: [true] });
    expect(condition('gte', false, 'boolean')).toEqual({ $in: [false, true] });
    expect(condition('lt', false, 'boolean')).toEqual({ $in: [] });
    expect(condition('lte', false, 'json')).toEqual({ $in: [false] });
    expect(condition('between', [true, true], 'boolean')).toEqual({ $in: [true] });
    expect(condition('gt', 'b', 'json')).toEqual({ $gt: 'b' });
    expect(messageOf(() => condition('lt', { a: 1 }, 'json'))).toBe('Filter value at title.lt must be a string, a number or a boolean');
  });

  test('values are compared in stored form and kept short', () => {
    expect(condition('gt', '2024-01-02T03:04:05Z', 'datetime')).toEqual({ $gt: '2024-01-02T03:04:05.000Z' });
    expect(messageOf(() => condition('eq', 'x'.repeat(MAX + 1)))).toBe(`Filter value at title.eq is longer than ${MAX} characters`);
    expect(messageOf(() => condition('eq', 'not a date', 'datetime'))).toMatch(/^Filter value at title\.eq /);
  });

  test('big-integer ranges compare numbers, not their text', () => {
    const range = bigintCondition('views', 'gt', '9', 'views.gt', MAX);
    expect(JSON.stringify(range)).not.toBe(JSON.stringify({ views: { $gt: '9' } }));
    expect(bigintCondition('views', 'between', ['1', '2'], 'views.between', MAX)).toEqual({
      $and: [bigintCondition('views', 'gte', '1', 'views.between', MAX), bigintCondition('views', 'lte', '2', 'views.between', MAX)],
    });
    expect(messageOf(() => bigintCondition('views', 'between', ['1'], 'views.between', MAX))).toBe('Filter operator between at views.between needs exactly two values');
  });
});
