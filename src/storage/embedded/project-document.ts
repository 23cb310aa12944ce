import type { StoredDocument } from '../types';
import { setField } from '../clone-document';

/**
 * The chosen top-level fields of a document just parsed from the store (nobody else holds it, so its values are
 * taken, not copied); `__proto__` stays a field.
 */
export function projectDocument(document: StoredDocument, projection: string[]): StoredDocument {
  const picked: StoredDocument = {};
  for (const field of projection) {
    if (Object.hasOwn(document, field)) setField(picked, field, document[field]);
  }
  return picked;
}
