import type { Collection, Store } from '../../storage/types';
import { aroundMethods, withWrappedCollections } from '../../common/wrap-methods';

/**
 * The store, telling `invalidate` which collections were written: every write path (content, users, files)
 * goes through it, whoever makes it. A write is reported once it returns, and again when the transaction it
 * ran in ends: inside a transaction a write returns before it is committed, and an answer cached in
 * between would otherwise outlive the commit. Overlapping transactions report each other's writes too,
 * which only drops a few answers more.
 */

const WRITES = ['insertOne', 'insertMany', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany'] as const;

export const invalidatingStore = (store: Store, invalidate: (collection: string) => void): Store => {
  let openTransactions = 0;
  const writtenInTransactions = new Set<string>();
  const observed = withWrappedCollections(store, (collection: Collection) =>
    aroundMethods(collection, WRITES, async (_, call) => {
      try {
        return await call();
      } finally {
        invalidate(collection.name);
        if (openTransactions > 0) writtenInTransactions.add(collection.name);
      }
    }),
  );
  return {
    ...observed,
    async transaction(work) {
      openTransactions += 1;
      try {
        return await store.transaction(work);
      } finally {
        openTransactions -= 1;
        for (const name of writtenInTransactions) invalidate(name);
        if (openTransactions === 0) writtenInTransactions.clear();
      }
    },
  };
};
