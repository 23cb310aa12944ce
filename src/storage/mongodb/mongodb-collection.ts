import type { ClientSession, Db, Document } from 'mongodb';
import { approximateBytes, documentsBytes, spendBytes } from '../byte-allowance';
import { cloneDocument } from '../clone-document';
import { assertBatchSize, normalizeFindOptions } from '../find-options';
import type { Collection, Filter, StoredDocument, UpdateSpec } from '../types';
import { emptyGroup, normalizeAggregateQuery } from '../aggregate-query';
import { extendsIndex, type NormalizedIndexSpec } from '../index-spec';
import { aggregatePipeline, groupOfResult } from './aggregate-pipeline';
import { toStoreError, toUnavailable } from './mongodb-errors';
import { fromMongoIndex, toMongoIndex, toMongoProjection, toMongoQuery, toMongoSort, toMongoUpdate } from './translate-query';

const NAMESPACE_NOT_FOUND = 26;

/**
 * One Folio collection as one MongoDB collection. Filters (see toMongoQuery), sorts, skip, limit and
 * projections run on the server. Inside `Store.transaction` every operation joins the transaction's session; index operations never
 * do (MongoDB restricts them inside transactions).
 */
export function createMongoCollection(name: string, db: Db, currentSession: () => ClientSession | undefined): Collection {
  const collection = db.collection(name);
  // index name -> fields, to name the fields of a duplicate key reported only by index name (insertMany)
  const indexFields = new Map<string, string[]>();

  async function run<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      const translated = toStoreError(error, name, indexFields);
      throw currentSession() ? translated : toUnavailable(translated);
    }
  }

  async function listIndexes(): Promise<NormalizedIndexSpec[]> {
    const listed = await run(() => collection.listIndexes().toArray()).catch((error: { code?: number }) => {
      if (error.code === NAMESPACE_NOT_FOUND) return [];
      throw error;
    });
    const specs = listed.map(fromMongoIndex).filter((spec) => spec !== null);
    for (const spec of specs) indexFields.set(spec.name, spec.keys.map(([field]) => field));
    return specs;
  }

  async function update(filter: Filter, spec: UpdateSpec, many: boolean): Promise<number> {
    const query = toMongoQuery(filter);
    const changes = toMongoUpdate(spec);
    const session = currentSession();
    if (!changes) return run(() => collection.countDocuments(query, { session, ...(many ? {} : { limit: 1 }) }));
    const result = await run(() => (many ? collection.updateMany(query, changes, { session }) : collection.updateOne(query, changes, { session })));
    return result.matchedCount;
  }

  async function remove(filter: Filter, many: boolean): Promise<number> {
    const query = toMongoQuery(filter);
    const session = currentSession();
    const result = await run(() => (many ? collection.deleteMany(query, { session }) : collection.deleteOne(query, { session })));
    return result.deletedCount;
  }

  return {
    name,
    async find(filter, options) {
      const query = toMongoQuery(filter);
      const { sort, skip, limit, projection, allowance } = normalizeFindOptions(options);
      const cursor = collection.find(query, {
        session: currentSession(),
        projection: toMongoProjection(projection),
        ...(sort.length > 0 ? { sort: toMongoSort(sort) } : {}),
        ...(skip > 0 ? { skip } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      const found = (await run(() => cursor.toArray())) as StoredDocument[];
      if (allowance) spendBytes(allowance, documentsBytes(found));
      return found;
    },
    async findOne(filter, options) {
      const query = toMongoQuery(filter);
      const { sort, skip, projection, allowance } = normalizeFindOptions(options);
      const found = await run(() =>
        collection.findOne(query, {
          session: currentSession(),
          projection: toMongoProjection(projection),
          ...(sort.length > 0 ? { sort: toMongoSort(sort) } : {}),
          ...(skip > 0 ? { skip } : {}),
        }),
      );
      if (allowance && found) spendBytes(allowance, approximateBytes(found));
      return found as StoredDocument | null;
    },
    async countDocuments(filter) {
      const query = toMongoQuery(filter);
      return run(() => collection.countDocuments(query, { session: currentSession() }));
    },
    async findPage(filter, options) {
      const [documents, total] = await Promise.all([this.find(filter, options), this.countDocuments(filter)]);
      return { documents, total };
    },
    async insertOne(document) {
      // a copy: the driver adds `_id` to the object it is given
      const copy: Document = cloneDocument(document);
      await run(() => collection.insertOne(copy, { session: currentSession() }));
    },
    async insertMany(documents) {
      const copies: Document[] = documents.map(cloneDocument);
      if (copies.length === 0) return;
      await run(() => collection.insertMany(copies, { session: currentSession(), ordered: true }));
    },
    updateOne: (filter, spec) => update(filter, spec, false),
    updateMany: (filter, spec) => update(filter, spec, true),
    deleteOne: (filter) => remove(filter, false),
    deleteMany: (filter) => remove(filter, true),
    async createIndex(index) {
      // MongoDB answers substring conditions by scanning: a trigram index is the embedded engine's own
      if (index.text) return;
      // a longer index of the same start serves this one's reads (and is kept); a shorter one is replaced
      const existing = await listIndexes();
      if (existing.some((candidate) => extendsIndex(candidate, index))) return;
      const { key, options } = toMongoIndex(index);
      indexFields.set(options.name, key.map(([field]) => field));
      await run(() => collection.createIndex(key, options));
      for (const shorter of existing.filter((candidate) => extendsIndex(index, candidate))) await run(() => collection.dropIndex(shorter.name));
    },
    async *findInBatches(filter, batchSize) {
      assertBatchSize(batchSize);
      const cursor = collection.find(toMongoQuery(filter), { session: currentSession(), projection: toMongoProjection(undefined), batchSize });
      try {
        let batch: StoredDocument[] = [];
        for await (const document of cursor) {
          batch.push(document as StoredDocument);
          if (batch.length === batchSize) {
            yield batch;
            batch = [];
          }
        }
        if (batch.length > 0) yield batch;
      } catch (error) {
        throw toStoreError(error, name, indexFields);
      } finally {
        await cursor.close();
      }
    },
    async aggregate(filter, query) {
      const normalized = normalizeAggregateQuery(query);
      const pipeline = aggregatePipeline(toMongoQuery(filter), normalized);
      const results = await run(() => collection.aggregate(pipeline, { session: currentSession() }).toArray());
      // $group makes no group of no documents: without groupBy the one group is there, counted 0
      if (results.length === 0 && normalized.groupBy.length === 0 && normalized.skip === 0) return [emptyGroup(normalized)];
      return results.map((result) => groupOfResult(result, normalized));
    },
    listIndexes,
  };
}
