import type { StoredDocument } from '../storage/types';
import type { Scope } from '../documents/scope';
import type { FolioContext } from '../context';

/**
 * Rows travel through the resolver tree carrying the scope they were read in, so that their
 * relations inherit status and locale. The scope sits beside the row in the request's
 * `rowScopes`, not on it: a property added to a row would slow every later read of its fields and
 * could leak into output.
 */

export type ScopedRow = StoredDocument;

export const withScope = <T extends StoredDocument>(context: FolioContext, row: T, scope: Scope): T => {
  context.rowScopes.set(row, scope);
  return row;
};

export const scopeOfRow = (context: FolioContext, row: ScopedRow): Scope =>
  context.rowScopes.get(row) ?? { status: row._status === 'draft' ? 'draft' : 'published', locale: typeof row.locale === 'string' ? row.locale : undefined };
