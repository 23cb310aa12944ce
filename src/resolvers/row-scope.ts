import type { StoredDocument } from '../storage/types';
import type { Scope } from '../documents/scope';

/**
 * Rows travel through the resolver tree carrying the scope they were read in, so that their
 * relations inherit status and locale. The scope sits beside the row in a WeakMap, not on it: a
 * property added to a row would slow every later read of its fields and could leak into output.
 * Weak keys keep nothing alive after the request drops its rows.
 */
const scopes = new WeakMap<StoredDocument, Scope>();

export type ScopedRow = StoredDocument;

export const withScope = <T extends StoredDocument>(row: T, scope: Scope): T => {
  scopes.set(row, scope);
  return row;
};

export const scopeOfRow = (row: ScopedRow): Scope =>
  scopes.get(row) ?? { status: row._status === 'draft' ? 'draft' : 'published', locale: typeof row.locale === 'string' ? row.locale : undefined };
