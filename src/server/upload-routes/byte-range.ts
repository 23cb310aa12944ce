/**
 * A request's `Range` header against a file of `size` bytes (RFC 9110 §14): one range of bytes is
 * served as asked; anything else a server may ignore (another unit, several ranges, a malformed
 * header) is answered with the whole file; a range past the end cannot be served at all.
 */

export type ByteRange = { start: number; end: number };

export type RangeAnswer = { kind: 'whole' } | ({ kind: 'part' } & ByteRange) | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

export const parseByteRange = (header: string | undefined, size: number): RangeAnswer => {
  const match = header === undefined ? null : SINGLE_RANGE.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const [first, last] = [match[1], match[2]].map((digits) => (digits === '' ? undefined : Number(digits)));
  if (first === undefined) {
    // a suffix: the last `last` bytes
    if (last === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - last!), end: size - 1 };
  }
  if (last !== undefined && last < first) return { kind: 'whole' };
  if (first >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start: first, end: Math.min(last ?? size - 1, size - 1) };
};
