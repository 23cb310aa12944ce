import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/**
 * The event loop's delay under prom-client's default names (`nodejs_eventloop_lag_*_seconds`), from a
 * monitor of this instance's own that `stop()` disables: prom-client's default collector starts one per
 * registry that nothing can stop, and a process that starts many servers (the tests) kept every one running.
 */

export interface EventLoopLag {
  stop(): void;
}

/** ms between the monitor's samples, prom-client's default */
const RESOLUTION_MS = 10;

/** each figure's name, help and reading, in nanoseconds */
const FIGURES: Array<[string, string, (monitor: IntervalHistogram) => number]> = [
  ['min', 'The minimum event loop delay since the previous scrape', (monitor) => monitor.min],
  ['max', 'The maximum event loop delay since the previous scrape', (monitor) => monitor.max],
  ['mean', 'The mean event loop delay since the previous scrape', (monitor) => monitor.mean],
  ['stddev', 'The standard deviation of the event loop delays since the previous scrape', (monitor) => monitor.stddev],
  ['p50', 'The 50th percentile of the event loop delays since the previous scrape', (monitor) => monitor.percentile(50)],
  ['p90', 'The 90th percentile of the event loop delays since the previous scrape', (monitor) => monitor.percentile(90)],
  ['p99', 'The 99th percentile of the event loop delays since the previous scrape', (monitor) => monitor.percentile(99)],
];

export const monitorEventLoopLag = (registry: Registry): EventLoopLag => {
  const monitor = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  monitor.enable();
  const registers = [registry];
  new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Time the event loop took to run a callback queued at the scrape, in seconds',
    registers,
    // One collect sets every figure, so they describe the same window, which then starts again. Registered
    // before them: a scrape reads the metrics in that order, so they are set before they are read.
    async collect() {
      // Scrapes closer together than one sample leave the window open rather than report a made-up figure.
      if (monitor.count > 0) {
        for (const { gauge, read } of gauges) gauge.set(read(monitor) / 1e9);
        // (reset also forgets when the last sample was taken: the one interval spanning the scrape goes uncounted)
        monitor.reset();
      }
      const started = process.hrtime.bigint();
      await new Promise((resolve) => setImmediate(resolve));
      this.set(Number(process.hrtime.bigint() - started) / 1e9);
    },
  });
  const gauges = FIGURES.map(([figure, help, read]) => ({ gauge: new Gauge({ name: `nodejs_eventloop_lag_${figure}_seconds`, help, registers }), read }));
  return { stop: () => void monitor.disable() };
};
