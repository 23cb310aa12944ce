/**
 * What this process keeps of a store another process writes too (the embedded store's workers): `moved` counts
 * the other processes' commits seen so far (Store.othersCommitted). Once it has moved, `read` runs once, and
 * every caller meanwhile waits for that read; undefined while nothing moved and no read is under way.
 */
export const readWhenMoved = (moved: () => number, read: () => Promise<void>): (() => Promise<void> | undefined) => {
  let readAfter = moved();
  let reading: Promise<void> | undefined;
  return () => {
    const seen = moved();
    if (seen === readAfter) return reading;
    readAfter = seen;
    const started = read().finally(() => {
      if (reading === started) reading = undefined;
    });
    reading = started;
    return started;
  };
};
