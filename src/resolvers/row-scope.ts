import type { StoredDocument } from '../storage/types';
import type { Scope } from '../documents/scope';

/**
 * Rows travel through the resolver tree carrying the scope they were read in, so that their
 * relations inherit status and locale. A symbol keeps it out of any serialised output.
 */
const SCOPE = Symbol('folio.scope');

export type ScopedRow = StoredDocument & { [SCOPE]?: Scope };

export const withScope = <T extends StoredDocument>(row: T, scope: Scope): T => {
  Object.defineProperty(row, SCOPE, { value: scope, enumerable: false });
  return row;
};

export const scopeOfRow = (row: ScopedRow): Scope =>
  row[SCOPE] ?? { status: row._status === 'draft' ? 'draft' : 'published', locale: typeof row.locale === 'string' ? row.locale : undefined };
