import type { Attribute, Models, ScalarAttributeType } from '../models/types';
import type { IndexSpec, Store } from '../storage/types';

/** Short scalars: filtered and sorted on by lists, indexed by default. */
const SORTABLE_TYPES = new Set<ScalarAttributeType>(['string', 'email', 'uid', 'enumeration', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime', 'timestamp']);
/** Texts searched with contains, startsWith, endsWith: given a substring (trigram) index where the engine has one. */
const SEARCHED_TYPES = new Set<ScalarAttributeType>(['string', 'text', 'email', 'uid']);

/**
 * Indexes every engine gets at start (createIndex is idempotent): one version per
 * (documentId, locale, status), unique attributes per locale and status, relation references, the timestamps,
 * every short scalar attribute (filters and sorts on them read an index) and text attributes for substring search.
 */
const indexesOf = (models: Models): Map<string, IndexSpec[]> => {
  const result = new Map<string, IndexSpec[]>();
  for (const contentType of models.contentTypes.values()) {
    // every read is scoped to a status (and a locale): led by them, one index serves the scope, a filter on the
    // field and a sort on it together, without sorting the whole scope
    // (ties are broken by id: with it in the index, a deep page is skipped over in the index alone)
    const scoped = (field: string): IndexSpec => ({
      keys: contentType.localized ? [['_status', 1], ['locale', 1], [field, 1], ['id', 1]] : [['_status', 1], [field, 1], ['id', 1]],
    });
    // a search reads its scope's part of the text index, not every match's row to check it
    const scopeFields = contentType.localized ? ['_status', 'locale'] : ['_status'];
    const indexes: IndexSpec[] = [
      { keys: [['documentId', 1], ['locale', 1], ['_status', 1]], unique: true },
      { keys: [['id', 1]], unique: true },
      { keys: [['_status', 1], ['locale', 1], ['id', 1]] },
      scoped('publishedAt'),
      scoped('createdAt'),
      scoped('updatedAt'),
    ];
    const indexed = (name: string, attribute: Attribute): boolean =>
      contentType.storage?.indexed ? contentType.storage.indexed.includes(name) : SORTABLE_TYPES.has(attribute.type as ScalarAttributeType);
    const searchable = (name: string, attribute: Attribute): boolean =>
      contentType.storage?.searchable ? contentType.storage.searchable.includes(name) : SEARCHED_TYPES.has(attribute.type as ScalarAttributeType) && !attribute.private;
    for (const [name, attribute] of Object.entries(contentType.attributes)) {
      if ((attribute.type === 'relation' && !attribute.mappedBy) || indexed(name, attribute)) indexes.push(scoped(name));
      if (searchable(name, attribute)) indexes.push({ keys: [[name, 1]], text: true, partition: scopeFields });
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
