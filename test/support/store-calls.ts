import type { Store } from '../../src/storage/types';

/**
 * Counts the calls that reach each collection of a running server's store, to show how many store
 * queries a request costs. The store object is the one every service holds, so its `collection`
 * is wrapped in place; nothing answers differently.
 */
export interface StoreCalls {
  /** calls on the collection since the last reset */
  of(collection: string): number;
  reset(): void;
}

export const countStoreCalls = (store: Store): StoreCalls => {
  const calls = new Map<string, number>();
  const collection = store.collection.bind(store);
  store.collection = (name) => {
    const target = collection(name);
    return new Proxy(target, {
      get(inner, property, receiver) {
        const value = Reflect.get(inner, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.set(name, (calls.get(name) ?? 0) + 1);
          return (value as (...given: unknown[]) => unknown).apply(inner, args);
        };
      },
    });
  };
  return { of: (name) => calls.get(name) ?? 0, reset: () => calls.clear() };
};
