import type { Attribute, ContentType, Models, ScalarAttributeType } from '../models/types';
import type { IndexSpec, Store } from '../storage/types';

/** Short scalars: filtered and sorted on by lists, indexed by default. */
const SORTABLE_TYPES = new Set<ScalarAttributeType>(['string', 'email', 'uid', 'enumeration', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime', 'timestamp']);
/** Texts searched with contains, startsWith, endsWith: given a substring (trigram) index where the engine has one. */
const SEARCHED_TYPES = new Set<ScalarAttributeType>(['string', 'text', 'email', 'uid']);

/** Filtered by ranges (this month, over 10 views): their indexes carry what aggregations read beside them. */
const RANGED_TYPES = new Set<ScalarAttributeType>(['integer', 'biginteger', 'float', 'decimal', 'date', 'time', 'datetime', 'timestamp']);
const TIMESTAMPS = ['publishedAt', 'createdAt', 'updatedAt'];
const GROUP_KEY_TYPES = new Set<string>(['enumeration', 'boolean']);
// stored as numbers (big integers are text): summed and averaged
const NUMBER_TYPES = new Set<string>(['integer', 'float', 'decimal']);
// past these, an index entry grows more than the aggregations it serves save
const MAX_CARRIED = 8;

/**
 * What an aggregation reads beside the field it filters on: group keys (to-one relations the type stores,
 * enumerations, booleans) and numbers. The index of a ranged field carries them after its own keys, so that
 * "views per category over a views range" or "sum of views this month" reads that index alone: grouping by
 * category over 7.5 % of 200,000 articles by views took 65 ms reading each match's document, 6 ms so.
 */
const carriedBy = (contentType: ContentType): string[] =>
  Object.entries(contentType.attributes)
    .filter(([, attribute]) => attribute.private !== true)
    .filter(([, attribute]) =>
      attribute.type === 'relation'
        ? !attribute.mappedBy && (attribute.relation === 'oneToOne' || attribute.relation === 'manyToOne')
        : GROUP_KEY_TYPES.has(attribute.type) || NUMBER_TYPES.has(attribute.type),
    )
    .map(([name]) => name)
    .slice(0, MAX_CARRIED);

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
    const carried = carriedBy(contentType);
    const ranged = new Set([...TIMESTAMPS, ...Object.keys(contentType.attributes).filter((name) => RANGED_TYPES.has(contentType.attributes[name].type as ScalarAttributeType))]);
    const scoped = (field: string): IndexSpec => ({
      keys: [
        ...(contentType.localized ? [['_status', 1], ['locale', 1]] : [['_status', 1]]),
        [field, 1],
        ['id', 1],
        ...(ranged.has(field) ? carried.filter((name) => name !== field).map((name) => [name, 1]) : []),
      ] as IndexSpec['keys'],
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

/**
 * In one transaction: the embedded store acknowledges each write after its WAL flush, and one by one the 121
 * index checks of a restart on the example models took 73-77 ms, together 19-27 ms. (MongoDB builds indexes
 * outside any transaction; there it changes nothing.)
 */
export const ensureIndexes = (models: Models, store: Store): Promise<void> =>
  store.transaction(async () => {
    for (const [collection, indexes] of indexesOf(models)) {
      for (const index of indexes) await store.collection(collection).createIndex(index);
    }
  });
