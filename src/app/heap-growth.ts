import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what its last full collection left live before it collects again
 * (`--heap-growing-percent`, read at each full collection), steered by `server.softMemoryLimit` as Go's GOMEMLIMIT
 * steers its collector: the growth is what leaves the process under the limit, so a heap that would pass it in
 * one cycle is collected sooner; past it, MIN_PERCENT. With room for V8's own policy (up to 4× what was live),
 * `server.heapGrowingPercent` (0: that policy). V8's policy alone, under answers of tens of megabytes, let the
 * heap reach several times what was live (docs/security.md#memory); a fixed 15 % everywhere cost the read
 * workloads up to 16 % of their throughput at 50,000 articles, where memory was not short.
 */

export const MIN_PERCENT = 15;
const V8_MAX_PERCENT = 300;

/** the growth for a process at `residentBytes` whose heap holds `heapBytes` */
export const heapGrowthAt = (residentBytes: number, heapBytes: number, limitBytes: number | false, percentBelow: number): number => {
  if (limitBytes === false) return percentBelow;
  const room = Math.floor((Math.max(0, limitBytes - residentBytes) / Math.max(heapBytes, 1)) * 100);
  if (room >= V8_MAX_PERCENT) return percentBelow;
  const percent = Math.max(MIN_PERCENT, room);
  return percentBelow > 0 ? Math.min(percentBelow, percent) : percent;
};

export interface HeapGrowth {
  stop(): void;
}

/** Sets the growth now and, with a limit, again after each collection (the flag is the process's, as is the memory). */
export function steerHeapGrowth(limitBytes: number | false, percentBelow: number, residentBytes: () => number = () => process.memoryUsage.rss()): HeapGrowth {
  let applied: number | undefined;
  const steer = () => {
    const percent = heapGrowthAt(residentBytes(), getHeapStatistics().used_heap_size, limitBytes, percentBelow);
    if (percent !== applied) setFlagsFromString(`--heap-growing-percent=${percent}`);
    applied = percent;
  };
  steer();
  if (limitBytes === false) return { stop: () => undefined };
  // entries come after the collection, batched: the next full collection's limit is the one steered
  const observer = new PerformanceObserver(steer);
  observer.observe({ entryTypes: ['gc'] });
  return { stop: () => observer.disconnect() };
}
