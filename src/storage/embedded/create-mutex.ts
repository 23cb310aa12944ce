/** Runs the works given to it one at a time, in call order. */
export interface Mutex {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(work) {
      const result = tail.then(work);
      // the next work waits for this one to settle, whether it succeeded or not
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
