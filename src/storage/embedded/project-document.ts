import type { StoredDocument, StoredValue } from '../types';
import { setField } from '../clone-document';

// stored documents were validated by cloneDocument, so copying them out needs no checks
function copyValue(value: StoredValue): StoredValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyValue);
  return copyDocument(value);
}

function copyDocument(document: StoredDocument): StoredDocument {
  const copy: StoredDocument = {};
  for (const key of Object.keys(document)) setField(copy, key, copyValue(document[key]));
  return copy;
}

/** A copy of the chosen top-level fields, or of the whole document without a projection. */
export function projectDocument(document: StoredDocument, projection: string[] | undefined): StoredDocument {
  if (!projection) return copyDocument(document);
  const copy: StoredDocument = {};
  for (const field of projection) {
    if (Object.hasOwn(document, field)) copy[field] = copyValue(document[field]);
  }
  return copy;
}
