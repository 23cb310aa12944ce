/**
 * At most `limit` pieces of work at once; the others start in the order they asked. A piece's place is
 * given up when it settles, however it settles.
 */
export interface FifoGate {
  run<T>(work: () => T | Promise<T>): Promise<T>;
}

export const createFifoGate = (limit: number): FifoGate => {
  let running = 0;
  const waiting: Array<() => void> = [];
  // a place given up goes to the work waiting longest, or back to the pool
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return {
    async run(work) {
      if (running < limit) running += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
};
