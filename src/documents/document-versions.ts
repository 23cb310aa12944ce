import type { ContentType } from '../models/types';
import type { Filter, Store, StoredDocument } from '../storage/types';
import type { ChangeRecorder } from './document-change';

/**
 * A document's versions: the published copy of a draft, and the attributes its locales share.
 */

/** The attributes every locale of a document shares (`pluginOptions.i18n.localized: false`). */
export const sharedValuesOf = (contentType: ContentType, row: StoredDocument): StoredDocument =>
  Object.fromEntries(Object.entries(row).filter(([name]) => contentType.attributes[name]?.localized === false));

export const createDocumentVersions = (store: Store, recordChange: ChangeRecorder) => {
  const collectionOf = (contentType: ContentType) => store.collection(contentType.collectionName);
  return {
    /** Replaces the published version with a copy of the draft (a new numeric id, as Strapi does). */
    async publish(contentType: ContentType, draft: StoredDocument, now: string): Promise<StoredDocument> {
      const versionFilter: Filter = { documentId: draft.documentId, _status: 'published' };
      if (contentType.localized) versionFilter.locale = draft.locale;
      await collectionOf(contentType).deleteMany(versionFilter);
      const published: StoredDocument = { ...draft, id: await store.nextSequence(contentType.collectionName), _status: 'published', publishedAt: now };
      await collectionOf(contentType).insertOne(published);
      await recordChange({ action: 'publish', contentType, row: published });
      return published;
    },
    /** Non-localized attributes are shared by every locale of a document: copy changes across. */
    async syncSharedAttributes(contentType: ContentType, documentId: string, locale: string | undefined, values: StoredDocument): Promise<void> {
      if (!contentType.localized) return;
      const shared = sharedValuesOf(contentType, values);
      if (Object.keys(shared).length === 0) return;
      await collectionOf(contentType).updateMany({ documentId, locale: { $ne: locale } }, { $set: shared });
    },
  };
};
