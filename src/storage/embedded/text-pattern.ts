/**
 * What the trigram index can answer: a `$regex` that is an escaped literal, anchored or not (the only kind
 * Folio's text operators produce), and the case folding of JavaScript's non-unicode `i` flag.
 */

export interface LiteralPattern {
  literal: string;
  caseInsensitive: boolean;
  /** `^` or `$`: where the literal must stand */
  anchored: boolean;
}

const META = new Set('.*+?^${}()|[]\\');

/** The literal a `$regex` looks for, or undefined when the pattern is more than an (anchored) literal. */
export function literalOf(pattern: unknown, options: unknown): LiteralPattern | undefined {
  if (typeof pattern !== 'string' || (options !== undefined && options !== '' && options !== 'i')) return undefined;
  let body = pattern;
  let anchored = false;
  if (body.startsWith('^')) {
    body = body.slice(1);
    anchored = true;
  }
  if (body.endsWith('$') && !body.endsWith('\\$')) {
    body = body.slice(0, -1);
    anchored = true;
  }
  let literal = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char === '\\') {
      const next = body[i + 1];
      if (next === undefined || !META.has(next)) return undefined;
      literal += next;
      i++;
    } else if (META.has(char)) return undefined;
    else literal += char;
  }
  return { literal, caseInsensitive: options === 'i', anchored };
}

const folded = new Uint16Array(0x10000);
let tableReady = false;

// ECMAScript's Canonicalize for a non-unicode case-insensitive RegExp, per UTF-16 code unit
function buildTable(): void {
  for (let unit = 0; unit < 0x10000; unit++) {
    const upper = String.fromCharCode(unit).toUpperCase();
    const candidate = upper.length === 1 ? upper.charCodeAt(0) : unit;
    folded[unit] = unit >= 128 && candidate < 128 ? unit : candidate;
  }
  tableReady = true;
}

/** `text` with every code unit canonicalised: `/x/i` matches `text` exactly where fold(text) contains fold(x). */
export function foldCase(text: string): string {
  if (!tableReady) buildTable();
  let out = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const canonical = folded[unit];
    if (canonical !== unit) {
      out += text.slice(start, i) + String.fromCharCode(canonical);
      start = i + 1;
    }
  }
  return start === 0 ? text : out + text.slice(start);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
const REPLACEMENT = '\ufffd';

/**
 * What the trigram index holds for a string: its folded form, lone surrogates (which UTF-8 cannot hold) as
 * U+FFFD, so every other character keeps its place and a literal without either is found where it is.
 */
export function indexedText(value: string): string {
  return foldCase(value).replace(LONE_SURROGATES, REPLACEMENT);
}

/** Trigrams need three characters; a literal holding a lone surrogate or U+FFFD cannot be told apart in the index. */
export function trigramSearchable(literal: string): boolean {
  return [...literal].length >= 3 && !LONE_SURROGATE.test(literal) && !literal.includes(REPLACEMENT);
}

/** An FTS5 query for `literal` as one phrase (a substring, with the trigram tokenizer). */
export function phraseQuery(literal: string): string {
  return `"${literal.replaceAll('"', '""')}"`;
}
