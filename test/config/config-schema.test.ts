import { anyString, arrayOf, either, object, string, validate } from '../../src/config/config-schema';

describe('either', () => {
  const stringOrList = either(string({ expected: 'a string or an array of strings' }), arrayOf(string()), 'a string or an array of strings');

  test('takes a value either kind accepts', () => {
    expect(validate(stringOrList, 'a')).toEqual({ value: 'a', issues: [] });
    expect(validate(stringOrList, ['a', 'b'])).toEqual({ value: ['a', 'b'], issues: [] });
  });

  test('a value of neither kind gets one message naming both', () => {
    expect(validate(stringOrList, 5)).toEqual({ issues: [{ path: '', message: 'must be a string or an array of strings, got 5' }] });
    expect(validate(stringOrList, '')).toEqual({ issues: [{ path: '', message: 'must be a string or an array of strings, got ""' }] });
  });

  test("a value of one kind with wrong contents gets that kind's messages", () => {
    expect(validate(stringOrList, ['a', 5])).toEqual({ issues: [{ path: '[1]', message: 'must be a non-empty string, got 5' }] });
    const nameOrEntry = either(anyString, object({ name: anyString }), 'a name or { name }');
    expect(validate(nameOrEntry, { nmae: 'x' }).issues).toEqual([
      { path: 'nmae', message: 'is not a known option (did you mean name?)' },
      { path: 'name', message: 'is required' },
    ]);
  });
});

describe('object', () => {
  const settings = object({ port: string().optional(), host: string().optional() }, { ignored: ['app'] });

  test('keeps the known keys that are set, drops ignored ones and undefined values', () => {
    expect(validate(settings, { port: 'a', host: undefined, app: { keys: [] } })).toEqual({ value: { port: 'a' }, issues: [] });
  });

  test('reports every issue at once, in the order of the keys in the file', () => {
    expect(validate(settings, { hots: 'x', port: 5, extra: 1 }).issues).toEqual([
      { path: 'hots', message: 'is not a known option (did you mean host?)' },
      { path: 'port', message: 'must be a non-empty string, got 5' },
      { path: 'extra', message: 'is not a known option' },
    ]);
  });
});
