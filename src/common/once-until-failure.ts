/**
 * `work` run once and its promise shared, unless it fails: then the next call runs it again. For
 * set-up done lazily against the store (indexes), so a database that was down at the first request
 * does not leave every later one failing.
 */
export const onceUntilFailure = <T>(work: () => Promise<T>): (() => Promise<T>) => {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= work().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
};
