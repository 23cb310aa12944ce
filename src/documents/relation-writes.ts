import type { ContentType, Models, RelationAttribute } from '../models/types';
import type { Filter, Store, StoredDocument, StoredValue } from '../storage/types';
import { badUserInput } from '../errors/graphql-errors';
import type { Prepared, RelationWrite } from './prepare-data';
import { applyRelationChange, referencedIds } from './relation-input';

/**
 * The relation side of a write: references checked to exist, the owning side's stored value
 * computed, and writes made through an inverse side (`mappedBy`) carried to the owning documents.
 */

export interface RelationWritesOptions {
  models: Models;
  store: Store;
  /** how many of these ids name a stored media file (media owns the files) */
  countFiles: (ids: number[]) => Promise<number>;
}

const isToMany = (attribute: RelationAttribute): boolean => attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany';

const asList = (value: StoredValue | undefined): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : typeof value === 'string' ? [value] : [];

/** Owning-side relation values (stored on this document) after applying the writes to `current`. */
export const owningValues = (writes: RelationWrite[], current: StoredDocument): StoredDocument => {
  const values: StoredDocument = {};
  for (const { name, attribute, change } of writes) {
    if (attribute.mappedBy) continue;
    const next = applyRelationChange(asList(current[name]), change);
    values[name] = isToMany(attribute) ? next : (next[next.length - 1] ?? null);
  }
  return values;
};

/** The owning document's new value of `field` once `documentId` is linked to it or unlinked from it. */
export const linkedValue = (current: StoredValue | undefined, documentId: string, linked: boolean, toMany: boolean): StoredValue => {
  if (!toMany) return linked ? documentId : null;
  const others = asList(current).filter((id) => id !== documentId);
  return linked ? [...others, documentId] : others;
};

export const createRelationWrites = ({ models, store, countFiles }: RelationWritesOptions) => {
  const collectionOf = (contentType: ContentType) => store.collection(contentType.collectionName);
  const targetOf = (attribute: RelationAttribute): ContentType | undefined => models.contentTypes.get(attribute.target);

  /** Every document and file the write names exists (in the write's locale, for a localized target). */
  const checkReferences = async (prepared: Prepared, locale: string | undefined): Promise<void> => {
    for (const write of [...prepared.relations, ...prepared.storedReferences]) {
      const target = targetOf(write.attribute);
      const ids = referencedIds(write.change);
      if (!target || ids.length === 0) continue;
      const filter: Filter = { documentId: { $in: ids } };
      if (target.localized && locale !== undefined) filter.locale = locale;
      const found = new Set((await collectionOf(target).find(filter, { projection: ['documentId'] })).map((row) => row.documentId));
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) {
        throw badUserInput(`Document with id "${missing}", locale "${target.localized ? locale : 'null'}" not found`);
      }
    }
    if (prepared.mediaIds.length > 0) {
      const ids = [...new Set(prepared.mediaIds)];
      const found = await countFiles(ids);
      if (found !== ids.length) throw badUserInput(`File not found among ids ${ids.join(', ')}`);
    }
  };

  /** Writes through the inverse side of a relation land on the owning documents. */
  const writeInverseSides = async (documentId: string, writes: RelationWrite[], locale: string | undefined) => {
    for (const { attribute, change } of writes) {
      const target = targetOf(attribute);
      const field = attribute.mappedBy;
      if (!target || !field) continue;
      const toMany = isToMany(target.attributes[field] as RelationAttribute);
      const localeFilter: Filter = target.localized && locale !== undefined ? { locale } : {};
      const currentRows = await collectionOf(target).find({ ...localeFilter, [field]: documentId }, { projection: ['documentId'] });
      const current = [...new Set(currentRows.map((row) => row.documentId as string))];
      const next = new Set(applyRelationChange(current, change));
      const changed = [...current.filter((id) => !next.has(id)), ...[...next].filter((id) => !current.includes(id))];
      if (changed.length === 0) continue;
      const rows = await collectionOf(target).find({ ...localeFilter, documentId: { $in: changed } });
      for (const row of rows) {
        const value = linkedValue(row[field], documentId, next.has(row.documentId as string), toMany);
        await collectionOf(target).updateOne({ id: row.id }, { $set: { [field]: value } });
      }
    }
  };

  return { checkReferences, writeInverseSides };
};
