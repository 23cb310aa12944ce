import { commitGroupNow } from './commit-group';
import { checkpointIfLarge, type StoreState } from './store-state';

/**
 * Full merges of the trigram indexes `find` names (text-index-merges), one at a time, on a thread of their own,
 * each under the write lock: writes wait for it (0.9 s at 200,000 articles, rarely), reads never.
 */
export function mergeTextIndexes(store: StoreState, find: () => string[]): void {
  if (store.closed) return;
  try {
    for (const table of find()) store.toMerge.add(table);
  } catch {
    // a merge is an optimisation: a write that committed must not report a failure of it
    return;
  }
  if (store.merging || store.toMerge.size === 0) return;
  store.merging = true;
  void (async () => {
    for (const table of store.toMerge) {
      store.toMerge.delete(table);
      await store.mutex.run(async () => {
        if (store.closed) return;
        // the merge writes on another connection: the open group's transaction must not hold SQLite's write lock
        commitGroupNow(store);
        await store.readers.mergeText(table);
      });
      checkpointIfLarge(store);
    }
  })()
    // a merge is an optimisation: one that fails (the store closing) leaves a correct index
    .catch(() => undefined)
    .finally(() => {
      store.merging = false;
      mergeTextIndexes(store, () => []);
    });
}
