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
 * The rows of a statement whose `doc` column is documents' JSON text, with that column parsed, where the
 * statement runs. Their text is counted against the allowance first: a read stops taking rows once past what
 * was left and throws (spendBytes), before anything is parsed, so a refused page is never held whole. On a
 * reader thread the page then crosses to the main thread as objects, copied once; as text it was copied and
 * parsed there again, two copies of every value in the heap of the thread every request waits for, and the
 * parse on it: 100 documents of 100 KB cost that thread 57–65 ms as text against 5 ms as objects, while pages
 * of small documents cost it the same either way (0.07 ms for 25).
 */
export function readDocumentRows(statement: Statement<unknown[]>, params: unknown[], { allowance }: DocumentColumn): unknown[] {
  let rows: Array<{ doc: unknown }>;
  if (allowance) {
    rows = [];
    const left = allowance.max - bytesSpent(allowance);
    let bytes = 0;
    for (const row of statement.iterate(...params) as IterableIterator<{ doc: unknown }>) {
      rows.push(row);
      if (typeof row.doc === 'string' && (bytes += row.doc.length) > left) break;
    }
    spendBytes(allowance, bytes);
  } else rows = statement.all(...params) as Array<{ doc: unknown }>;
  for (const row of rows) if (typeof row.doc === 'string') row.doc = JSON.parse(row.doc);
  return rows;
}
