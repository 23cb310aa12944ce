import { GraphQLError } from 'graphql';
import { createFileHash, extensionOf, sanitizeFileName, STORED_NAME } from '../../src/media/file-names';
import { parseFileInfo } from '../../src/media/file-info';

describe('sanitizeFileName', () => {
  test.each([
    ['photo.png', 'photo.png'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\photo.png', 'photo.png'],
    ['a\u0000b\r\nc\u001b[31m.txt', 'abc[31m.txt'],
    ['invoice\u202egnp.exe', 'invoicegnp.exe'],
    ['  spaced name.jpg  ', 'spaced name.jpg'],
    ['..', 'file'],
    ['', 'file'],
    ['dir/', 'file'],
  ])('%j → %j', (raw, clean) => {
    expect(sanitizeFileName(raw)).toBe(clean);
  });

  test('names are capped at 255 characters', () => {
    expect(sanitizeFileName(`${'x'.repeat(300)}.png`)).toHaveLength(255);
  });
});

describe('stored names', () => {
  test('hash: slug of the base name and 10 random hex digits, safe on any file system', () => {
    const hash = createFileHash('Été à Paris (1).JPG');
    expect(hash).toMatch(/^Ete_a_Paris_1_[0-9a-f]{10}$/);
    expect(createFileHash('../../.htaccess')).toMatch(/^htaccess_[0-9a-f]{10}$|^file_[0-9a-f]{10}$/);
    expect(createFileHash('photo.png')).not.toBe(createFileHash('photo.png'));
    expect(STORED_NAME.test(`${hash}.JPG`)).toBe(true);
  });

  test('extensions only of safe characters', () => {
    expect(extensionOf('a.png')).toBe('.png');
    expect(extensionOf('archive.tar.gz')).toBe('.gz');
    expect(extensionOf('noext')).toBe('');
    expect(extensionOf('weird.p$g')).toBe('');
    expect(STORED_NAME.test('../x.png')).toBe(false);
    expect(STORED_NAME.test('x%2Fy.png')).toBe(false);
  });
});

const rejection = (run: () => unknown): { message: string; details: unknown } => {
  try {
    run();
  } catch (error) {
    const strapi = (error as GraphQLError).extensions.error as { name: string; message: string; details: unknown };
    expect(strapi.name).toBe('ValidationError');
    return strapi;
  }
  throw new Error('expected a ValidationError');
};

describe('parseFileInfo', () => {
  test('one object, an array by position, or one field per file', () => {
    expect(parseFileInfo([], 2)).toEqual([]);
    expect(parseFileInfo(['{"alternativeText":"alt","caption":null}'], 1)).toEqual([{ alternativeText: 'alt', caption: null }]);
    expect(parseFileInfo(['[{"name":"a.png"},{"caption":"b"}]'], 2)).toEqual([{ name: 'a.png' }, { caption: 'b' }]);
    expect(parseFileInfo(['{"name":"a"}', '{"name":"b"}'], 2)).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(parseFileInfo(['[{"name":"only the first"}]'], 3)).toEqual([{ name: 'only the first' }]);
  });

  test('names are cleaned like file names; a null name keeps the current one', () => {
    expect(parseFileInfo(['{"name":"../../secret\\u0000.png"}'], 1)).toEqual([{ name: 'secret.png' }]);
    expect(parseFileInfo(['{"name":null}'], 1)).toEqual([{}]);
  });

  test('malformed input is a ValidationError naming the problem', () => {
    expect(rejection(() => parseFileInfo(['{not json'], 1)).message).toBe('fileInfo must be valid JSON');
    expect(rejection(() => parseFileInfo(['"text"'], 1)).message).toBe('fileInfo must be an object');
    expect(rejection(() => parseFileInfo(['{"alt":"x"}'], 1)).message).toBe('fileInfo field has unspecified keys: alt');
    expect(rejection(() => parseFileInfo(['{"caption":5}'], 1)).message).toBe('fileInfo.caption must be a string');
    expect(rejection(() => parseFileInfo(['{"name":"x"}'], 2)).message).toMatch(/must be an array with one entry per file/);
    expect(rejection(() => parseFileInfo(['[{},{}]'], 1)).message).toBe('fileInfo has 2 entries for 1 file(s)');
    expect(rejection(() => parseFileInfo(['[{}, []]'], 2)).message).toBe('fileInfo.1 must be an object');
  });
});
