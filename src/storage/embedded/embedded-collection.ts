import { assertBatchSize, normalizeFindOptions } from '../find-options';
import { normalizeIndexSpec, sameIndex } from '../index-spec';
import type { Collection, Filter, StoredDocument, UpdateSpec } from '../types';
import { applyUpdate, prepareUpdate } from './apply-update';
import { cloneDocument } from '../clone-document';
import { projectDocument } from './project-document';
import type { CollectionTable } from './collection-table';
import { matchingKeys, queryTable } from './query-table';
import type { WriteBatch } from './write-batch';

/** What a collection needs from its store. */
export interface EmbeddedStoreAccess {
  /** the collection's table, loaded from disk on first use; throws once the store is closed */
  table(name: string): CollectionTable;
  /** runs `apply` against a batch: the caller's transaction, or a new one persisted before resolving */
  write<T>(apply: (batch: WriteBatch) => T): Promise<T>;
}

export function createEmbeddedCollection(name: string, store: EmbeddedStoreAccess): Collection {
  function insert(batch: WriteBatch, documents: StoredDocument[]): void {
    const table = store.table(name);
    for (const document of documents) batch.put(table, table.allocateKey(), document);
  }

  async function update(filter: Filter, spec: UpdateSpec, limit: number): Promise<number> {
    const prepared = prepareUpdate(spec);
    return store.write((batch) => {
      const table = store.table(name);
      const keys = matchingKeys(table, filter, limit);
      for (const key of keys) batch.put(table, key, applyUpdate(table.documents.get(key)!, prepared));
      return keys.length;
    });
  }

  function remove(filter: Filter, limit: number): Promise<number> {
    return store.write((batch) => {
      const table = store.table(name);
      const keys = matchingKeys(table, filter, limit);
      for (const key of keys) batch.put(table, key, undefined);
      return keys.length;
    });
  }

  return {
    name,
    async find(filter, options) {
      const normalized = normalizeFindOptions(options);
      return queryTable(store.table(name), filter, normalized).map((document) => projectDocument(document, normalized.projection));
    },
    async findOne(filter, options) {
      const normalized = { ...normalizeFindOptions(options), limit: 1 };
      const [found] = queryTable(store.table(name), filter, normalized);
      return found ? projectDocument(found, normalized.projection) : null;
    },
    async countDocuments(filter) {
      const table = store.table(name);
      return table.cachedCount(filter, () => matchingKeys(table, filter).length);
    },
    async insertOne(document) {
      const copy = cloneDocument(document);
      await store.write((batch) => insert(batch, [copy]));
    },
    async insertMany(documents) {
      const copies = documents.map(cloneDocument);
      await store.write((batch) => insert(batch, copies));
    },
    updateOne: (filter, spec) => update(filter, spec, 1),
    updateMany: (filter, spec) => update(filter, spec, Infinity),
    deleteOne: (filter) => remove(filter, 1),
    deleteMany: (filter) => remove(filter, Infinity),
    async createIndex(index) {
      const spec = normalizeIndexSpec(index);
      await store.write((batch) => {
        const table = store.table(name);
        const existing = table.indexes.find((candidate) => candidate.name === spec.name || sameIndex(candidate, spec));
        if (!existing) batch.addIndex(table, spec);
        else if (!sameIndex(existing, spec) || existing.name !== spec.name) {
          throw new Error(`index ${spec.name} on ${name} conflicts with existing index ${existing.name}`);
        }
      });
    },
    async *findInBatches(filter, batchSize) {
      assertBatchSize(batchSize);
      // a snapshot of references: writes made while the caller works through the batches do not shift them
      const matched = queryTable(store.table(name), filter, normalizeFindOptions());
      for (let start = 0; start < matched.length; start += batchSize) {
        yield matched.slice(start, start + batchSize).map((document) => projectDocument(document, undefined));
      }
    },
    async listIndexes() {
      return store.table(name).indexes.map((spec) => ({ ...spec, keys: spec.keys.map(([field, direction]) => [field, direction]) }));
    },
  };
}
