import type { Collection, Store } from '../storage/types';
import { secondsSince, type FolioMetrics } from './folio-metrics';

/** The store with every collection call timed into `folio_store_call_duration_seconds` (failed calls too). */

type TimedMethod = Exclude<keyof Collection, 'name' | 'findInBatches'>;
const TIMED: readonly TimedMethod[] = ['find', 'findOne', 'countDocuments', 'insertOne', 'insertMany', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany', 'createIndex', 'listIndexes'];

const timedCollection = (collection: Collection, metrics: FolioMetrics): Collection => {
  const timed: Record<string, unknown> = {};
  for (const method of TIMED) {
    const call = collection[method] as (...args: unknown[]) => Promise<unknown>;
    const observe = metrics.storeDuration.labels(collection.name, method);
    timed[method] = async (...args: unknown[]) => {
      const started = process.hrtime.bigint();
      try {
        return await call.apply(collection, args);
      } finally {
        observe.observe(secondsSince(started));
      }
    };
  }
  return {
    name: collection.name,
    findInBatches: (filter, batchSize) => collection.findInBatches(filter, batchSize),
    ...(timed as Omit<Collection, 'name' | 'findInBatches'>),
  };
};

export const timedStore = (store: Store, metrics: FolioMetrics): Store => {
  // one wrapper per collection, made on its first use
  const collections = new Map<string, Collection>();
  return {
    engine: store.engine,
    collection(name) {
      let collection = collections.get(name);
      if (!collection) collections.set(name, (collection = timedCollection(store.collection(name), metrics)));
      return collection;
    },
    listCollections: () => store.listCollections(),
    nextSequence: (name) => store.nextSequence(name),
    transaction: (work) => store.transaction(work),
    ping: () => store.ping(),
    close: () => store.close(),
  };
};
