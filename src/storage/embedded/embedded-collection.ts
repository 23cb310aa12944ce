import { normalizeFindOptions } from '../find-options';
import type { Collection } from '../types';
import { documentsOf, readOf, type CollectionContext, type EmbeddedStoreAccess } from './collection-read';
import { createIndex, insert, remove, update } from './collection-writes';
import { documentsInBatches, rows } from './read-rows';
import { aggregate, count, page } from './read-totals';

export type { EmbeddedStoreAccess } from './collection-read';

export function createEmbeddedCollection(name: string, store: EmbeddedStoreAccess): Collection {
  const context: CollectionContext = { name, store };
  return {
    name,
    async find(filter, options) {
      const normalized = normalizeFindOptions(options);
      return documentsOf(await rows(context, readOf(context, filter), normalized), normalized.projection);
    },
    async findOne(filter, options) {
      const normalized = { ...normalizeFindOptions(options), limit: 1 };
      return documentsOf(await rows(context, readOf(context, filter), normalized), normalized.projection)[0] ?? null;
    },
    // async: a refused filter rejects, as every call of the interface does, rather than throwing
    countDocuments: async (filter) => count(context, readOf(context, filter), JSON.stringify(filter)),
    findPage: (filter, options) => page(context, filter, options),
    insertOne: (document) => insert(context, [document]),
    insertMany: (documents) => insert(context, documents),
    updateOne: (filter, spec) => update(context, filter, spec, 1),
    updateMany: (filter, spec) => update(context, filter, spec, Infinity),
    deleteOne: (filter) => remove(context, filter, 1),
    deleteMany: (filter) => remove(context, filter, Infinity),
    createIndex: (index) => createIndex(context, index),
    findInBatches: (filter, batchSize) => documentsInBatches(context, filter, batchSize),
    aggregate: (filter, query) => aggregate(context, filter, query),
    async listIndexes() {
      return store.database().state(name).indexes.map((spec) => ({ ...spec, keys: spec.keys.map(([field, direction]) => [field, direction]) }));
    },
  };
}
