import type { Store } from '../../src/storage/types';

/**
 * A transaction of `store` that runs `before`, announces it (`started`), waits for `go`, runs `after` and
 * commits (`done`): what other callers see while a transaction is open.
 */
export const heldTransaction = (store: Store, before: () => Promise<unknown>, after: () => Promise<unknown> = async () => undefined) => {
  let go!: () => void;
  const gate = new Promise<void>((resolve) => (go = resolve));
  let begun!: () => void;
  const started = new Promise<void>((resolve) => (begun = resolve));
  const done = store.transaction(async () => {
    await before();
    begun();
    await gate;
    await after();
  });
  return { started, go, done };
};
