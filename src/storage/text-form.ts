import { isRecord } from '../common/is-record';

/**
 * `$asText`, the one storage operator MongoDB's query language lacks: `{ views: { $asText: { $regex: '5' } } }`
 * tests the text form of a string, number or boolean against a regular expression, as SQL's LIKE on a cast
 * column does (Strapi's text operators on numbers). The text form is JavaScript's: a string as it is, a number
 * in shortest decimal form (`String(n)`), `true`/`false`. Null, missing values, objects and arrays never match,
 * and a path is not followed through arrays.
 */

export interface TextPattern {
  $regex: string;
  $options?: string;
}

/** The operand of `$asText` when it is well formed: a pattern and, at most, the `i` option. */
export function textPatternOf(operand: unknown): TextPattern | undefined {
  if (!isRecord(operand) || typeof operand.$regex !== 'string') return undefined;
  const keys = Object.keys(operand);
  if (keys.some((key) => key !== '$regex' && key !== '$options')) return undefined;
  if (operand.$options !== undefined && operand.$options !== '' && operand.$options !== 'i') return undefined;
  return { $regex: operand.$regex, ...(operand.$options ? { $options: operand.$options } : {}) };
}

export function textForm(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A predicate on values for a well-formed `$asText` operand. */
export function textPredicate(pattern: TextPattern): (value: unknown) => boolean {
  const regex = new RegExp(pattern.$regex, pattern.$options ?? '');
  return (value) => {
    const text = textForm(value);
    return text !== undefined && regex.test(text);
  };
}
