/**
 * Wrappers for objects of methods (the store and its collections are object literals): what observes the
 * store (metrics, the response cache) wraps the calls it needs and leaves the rest as they are.
 */

type AsyncMethod = (...args: unknown[]) => Promise<unknown>;

/** `target` with the named async methods run through `around`; its other members unchanged. */
export const aroundMethods = <T extends object, K extends keyof T & string>(
  target: T,
  names: readonly K[],
  around: (name: K, call: () => Promise<unknown>) => Promise<unknown>,
): T => {
  const wrapped: T = { ...target };
  for (const name of names) {
    const method = target[name] as unknown as AsyncMethod;
    (wrapped as Record<string, unknown>)[name] = (...args: unknown[]) => around(name, () => method.apply(target, args));
  }
  return wrapped;
};

/** `store` whose `collection(name)` hands out `wrap`ped collections, each wrapped once, on first use. */
export const withWrappedCollections = <C, S extends { collection(name: string): C }>(store: S, wrap: (collection: C) => C): S => {
  const collections = new Map<string, C>();
  return {
    ...store,
    collection(name: string) {
      let collection = collections.get(name);
      if (collection === undefined) collections.set(name, (collection = wrap(store.collection(name))));
      return collection;
    },
  };
};
