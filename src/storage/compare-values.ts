/**
 * MongoDB's sort order restricted to JSON values: null/missing < numbers < strings < objects < arrays < booleans.
 * Strings compare by code point (MongoDB's default, binary, collation), not by UTF-16 unit.
 */

export function typeRank(value: unknown): number {
  if (value === null || value === undefined) return 1;
  switch (typeof value) {
    case 'number':
      return 2;
    case 'string':
      return 3;
    case 'boolean':
      return 6;
    default:
      return Array.isArray(value) ? 5 : 4;
  }
}

// UTF-16 order puts U+E000..U+FFFF after the surrogate pairs of U+10000 and up; code point order does not
function codeUnitRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

const ABOVE_SURROGATE_START = /[\ud800-\uffff]/g;

/**
 * A string whose UTF-16 order (JavaScript's `<`) is the code point order of `value`: the same string unless it
 * holds units from U+D800 up, so that sorting can compare natively.
 */
export function codePointOrderKey(value: string): string {
  ABOVE_SURROGATE_START.lastIndex = 0;
  if (!ABOVE_SURROGATE_START.test(value)) return value;
  return value.replace(ABOVE_SURROGATE_START, (unit) => String.fromCharCode(codeUnitRank(unit.charCodeAt(0))));
}

function compareStrings(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const a = left.charCodeAt(i);
    const b = right.charCodeAt(i);
    if (a !== b) return a < 0xd800 || b < 0xd800 ? a - b : codeUnitRank(a) - codeUnitRank(b);
  }
  return left.length - right.length;
}

function compareObjects(left: Record<string, unknown>, right: Record<string, unknown>): number {
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  const length = Math.min(leftKeys.length, rightKeys.length);
  for (let i = 0; i < length; i++) {
    const byValueType = typeRank(left[leftKeys[i]]) - typeRank(right[rightKeys[i]]);
    if (byValueType !== 0) return byValueType;
    const byName = compareStrings(leftKeys[i], rightKeys[i]);
    if (byName !== 0) return byName;
    const byValue = compareValues(left[leftKeys[i]], right[rightKeys[i]]);
    if (byValue !== 0) return byValue;
  }
  return leftKeys.length - rightKeys.length;
}

function compareArrays(left: unknown[], right: unknown[]): number {
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const byValue = compareValues(left[i], right[i]);
    if (byValue !== 0) return byValue;
  }
  return left.length - right.length;
}

/** Negative, zero or positive as `left` sorts before, with or after `right`. */
export function compareValues(left: unknown, right: unknown): number {
  const byType = typeRank(left) - typeRank(right);
  if (byType !== 0) return byType;
  switch (typeof left) {
    case 'number':
      return (left as number) - (right as number);
    case 'string':
      return compareStrings(left as string, right as string);
    case 'boolean':
      return Number(left) - Number(right);
    case 'object':
      if (left === null || right === null) return 0;
      if (Array.isArray(left)) return compareArrays(left, right as unknown[]);
      return compareObjects(left as Record<string, unknown>, right as Record<string, unknown>);
    default:
      return 0;
  }
}
