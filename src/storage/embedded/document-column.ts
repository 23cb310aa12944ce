import type { Statement } from 'better-sqlite3';
import { bytesSpent, spendBytes, type ByteAllowance } from '../byte-allowance';
import type { StoredDocument } from '../types';

/** A row of a read that carries documents: its key and its document, parsed. */
export interface DocumentRow {
  k: number;
  doc: StoredDocument;
}

/** How a read's `doc` column, documents' JSON text, is handed back: parsed, counted against `allowance`. */
export interface DocumentColumn {
  allowance?: ByteAllowance;
}

/**
 * Where a reader thread parses the pages it sends: from this many bytes of text. A large page crosses to the
 * main thread as objects, copied once; as text it was copied and parsed there again, two copies of every value
 * in the heap of the thread every request waits for, and the parse on it (100 documents of 100 KB: 57–65 ms of
 * main thread as text, 5 ms as objects). A small page crosses as text: objects cost the main thread as much as
 * text and its parse (0.07 ms for 25 small documents), and cost the reader thread more to send, which on a
 * machine of two cores is time the main thread lacks (the benchmark's reads at 50,000 articles: 2–15 % slower).
 */
export const PARSE_ON_THREAD_FROM = 256 * 1024;

/** Parses, in place, the `doc` column's text left in `rows`. */
export function parseDocumentColumn(rows: unknown[]): void {
  for (const row of rows as Array<{ doc: unknown }>) if (typeof row.doc === 'string') row.doc = JSON.parse(row.doc);
}

/**
 * The rows of a statement whose `doc` column is documents' JSON text, that column parsed when the page's text
 * is `parseFrom` bytes or more. The text is counted against the allowance first: a read stops taking rows once
 * past what was left and throws (spendBytes), before anything is parsed, so a refused page is never held whole.
 */
export function readDocumentRows(statement: Statement<unknown[]>, params: readonly unknown[], { allowance }: DocumentColumn, parseFrom: number): unknown[] {
  let rows: Array<{ doc: unknown }>;
  let bytes = 0;
  if (allowance) {
    rows = [];
    const left = allowance.max - bytesSpent(allowance);
    for (const row of statement.iterate(...params) as IterableIterator<{ doc: unknown }>) {
      rows.push(row);
      if (typeof row.doc === 'string' && (bytes += row.doc.length) > left) break;
    }
    spendBytes(allowance, bytes);
  } else {
    rows = statement.all(...params) as Array<{ doc: unknown }>;
    if (parseFrom > 0) for (const row of rows) if (typeof row.doc === 'string') bytes += row.doc.length;
  }
  if (bytes >= parseFrom) parseDocumentColumn(rows);
  return rows;
}
