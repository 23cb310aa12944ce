import type { Registry } from 'prom-client';
import processCpuTotal from 'prom-client/lib/metrics/processCpuTotal';
import processStartTime from 'prom-client/lib/metrics/processStartTime';
import osMemoryHeap from 'prom-client/lib/metrics/osMemoryHeap';
import processOpenFileDescriptors from 'prom-client/lib/metrics/processOpenFileDescriptors';
import processMaxFileDescriptors from 'prom-client/lib/metrics/processMaxFileDescriptors';
import processResources from 'prom-client/lib/metrics/processResources';
import processHandles from 'prom-client/lib/metrics/processHandles';
import processRequests from 'prom-client/lib/metrics/processRequests';
import heapSizeAndUsed from 'prom-client/lib/metrics/heapSizeAndUsed';
import heapSpacesSizeAndUsed from 'prom-client/lib/metrics/heapSpacesSizeAndUsed';
import version from 'prom-client/lib/metrics/version';
import { monitorEventLoopLag } from './event-loop-lag';
import { observeGcDurations } from './gc-durations';

/**
 * prom-client's default `process_*` and `nodejs_*` metrics, for one instance until `stop()`. Its collectors
 * that only read at scrape time are its own (prom-client is pinned: they are not its public API); the two that
 * keep something running (the event-loop monitor, the GC observer) are Folio's, because prom-client's can't be stopped.
 */

export interface ProcessMetrics {
  stop(): void;
}

const READ_AT_SCRAPE = [
  processCpuTotal,
  processStartTime,
  osMemoryHeap,
  processOpenFileDescriptors,
  processMaxFileDescriptors,
  processResources,
  processHandles,
  processRequests,
  heapSizeAndUsed,
  heapSpacesSizeAndUsed,
  version,
];

export const collectProcessMetrics = (registry: Registry): ProcessMetrics => {
  for (const collect of READ_AT_SCRAPE) collect(registry, {});
  const running = [monitorEventLoopLag(registry), observeGcDurations(registry)];
  return { stop: () => running.forEach((part) => part.stop()) };
};
