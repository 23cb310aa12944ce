import type { Models } from '../models/types';
import type { IndexSpec, Store } from '../storage/types';

/**
 * Indexes every engine gets at start (createIndex is idempotent): one version per
 * (documentId, locale, status), unique attributes per locale and status, and the fields reads
 * filter or sort on by default.
 */
const indexesOf = (models: Models): Map<string, IndexSpec[]> => {
  const result = new Map<string, IndexSpec[]>();
  for (const contentType of models.contentTypes.values()) {
    const indexes: IndexSpec[] = [
      { keys: [['documentId', 1], ['locale', 1], ['_status', 1]], unique: true },
      { keys: [['id', 1]], unique: true },
      { keys: [['_status', 1], ['locale', 1], ['id', 1]] },
      { keys: [['publishedAt', 1]] },
    ];
    for (const [name, attribute] of Object.entries(contentType.attributes)) {
      if (attribute.type === 'relation' && !attribute.mappedBy) indexes.push({ keys: [[name, 1]] });
      if ('unique' in attribute && attribute.unique && attribute.type !== 'relation') {
        indexes.push({ keys: [[name, 1], ['locale', 1], ['_status', 1]], unique: true });
      }
    }
    result.set(contentType.collectionName, indexes);
  }
  return result;
};

export const ensureIndexes = async (models: Models, store: Store): Promise<void> => {
  for (const [collection, indexes] of indexesOf(models)) {
    for (const index of indexes) await store.collection(collection).createIndex(index);
  }
};
