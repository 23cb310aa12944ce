import { anyString, arrayOf, either, object, string, type ShapeIssue } from '../../src/config/shape';

const run = <T>(shape: (value: unknown, path: string, issues: ShapeIssue[]) => T, value: unknown) => {
  const issues: ShapeIssue[] = [];
  return { value: shape(value, 'key', issues), issues };
};

describe('either', () => {
  const stringOrList = either(string(), arrayOf(string()), 'a string or an array of strings');

  test('takes a value either shape accepts', () => {
    expect(run(stringOrList, 'a')).toEqual({ value: 'a', issues: [] });
    expect(run(stringOrList, ['a', 'b'])).toEqual({ value: ['a', 'b'], issues: [] });
  });

  test('a value of neither kind gets one message naming both', () => {
    expect(run(stringOrList, 5)).toEqual({ value: undefined, issues: [{ path: 'key', message: 'must be a string or an array of strings, got 5' }] });
    expect(run(stringOrList, '')).toEqual({ value: undefined, issues: [{ path: 'key', message: 'must be a string or an array of strings, got ""' }] });
  });

  test('a value of one kind with wrong contents gets that kind\'s messages', () => {
    expect(run(stringOrList, ['a', 5])).toEqual({ value: undefined, issues: [{ path: 'key[1]', message: 'must be a non-empty string, got 5' }] });
    const nameOrEntry = either(anyString, object({ name: anyString }, { required: ['name'] }), 'a name or { name }');
    expect(run(nameOrEntry, { nmae: 'x' }).issues).toEqual([
      { path: 'key.nmae', message: 'is not a known option (did you mean name?)' },
      { path: 'key.name', message: 'is required' },
    ]);
  });
});
