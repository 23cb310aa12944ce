import { PerformanceObserver, constants, type NodeGCPerformanceDetail } from 'node:perf_hooks';
import { Histogram, type Registry } from 'prom-client';

/**
 * `nodejs_gc_duration_seconds` as prom-client's default metrics name it, from an observer `stop()`
 * disconnects: prom-client's own observer is never disconnected, so every server a process started kept one.
 */

export interface GcDurations {
  stop(): void;
}

const KINDS = new Map([
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weakcb'],
]);

/** prom-client's default buckets, in seconds */
const BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5];

const isGcDetail = (detail: unknown): detail is NodeGCPerformanceDetail => typeof detail === 'object' && detail !== null && 'kind' in detail;

export const observeGcDurations = (registry: Registry): GcDurations => {
  const durations = new Histogram({
    name: 'nodejs_gc_duration_seconds',
    help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    labelNames: ['kind'],
    buckets: BUCKETS,
    registers: [registry],
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // Node's gc entries carry `detail`, which its typings leave out
      const detail = 'detail' in entry ? entry.detail : undefined;
      const kind = isGcDetail(detail) ? KINDS.get(detail.kind) : undefined;
      durations.labels(kind ?? 'other').observe(entry.duration / 1000);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { stop: () => observer.disconnect() };
};
