import { parseByteRange } from '../../src/server/upload-routes/byte-range';

test('one range of bytes is served as asked, clamped to the file', () => {
  expect(parseByteRange('bytes=0-9', 100)).toEqual({ kind: 'part', start: 0, end: 9 });
  expect(parseByteRange('bytes=90-200', 100)).toEqual({ kind: 'part', start: 90, end: 99 });
  expect(parseByteRange('bytes=95-', 100)).toEqual({ kind: 'part', start: 95, end: 99 });
  expect(parseByteRange('bytes=-10', 100)).toEqual({ kind: 'part', start: 90, end: 99 });
  expect(parseByteRange('bytes=-500', 100)).toEqual({ kind: 'part', start: 0, end: 99 });
});

test('what a server may ignore is answered with the whole file', () => {
  for (const header of [undefined, '', 'bytes=', 'bytes=-', 'items=0-9', 'bytes=0-9,20-29', 'bytes=9-0', 'bytes=a-b']) {
    expect(parseByteRange(header, 100)).toEqual({ kind: 'whole' });
  }
});

test('a range past the end, or of no bytes, cannot be served', () => {
  expect(parseByteRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
  expect(parseByteRange('bytes=150-160', 100)).toEqual({ kind: 'unsatisfiable' });
  expect(parseByteRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
  expect(parseByteRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  expect(parseByteRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
});
