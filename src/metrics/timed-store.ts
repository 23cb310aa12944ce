import type { Collection, Store } from '../storage/types';
import { aroundMethods, withWrappedCollections } from '../common/wrap-methods';
import type { FolioMetrics } from './folio-metrics';
import { secondsSince } from './seconds-since';

/** The store with every collection call timed into `folio_store_call_duration_seconds` (failed calls too). */

const TIMED = ['find', 'findOne', 'countDocuments', 'findPage', 'insertOne', 'insertMany', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany', 'createIndex', 'listIndexes', 'aggregate'] as const;

export const timedStore = (store: Store, metrics: FolioMetrics): Store =>
  withWrappedCollections(store, (collection: Collection) =>
    aroundMethods(collection, TIMED, async (method, call) => {
      const started = process.hrtime.bigint();
      try {
        return await call();
      } finally {
        metrics.storeDuration.labels(collection.name, method).observe(secondsSince(started));
      }
    }),
  );
