/**
 * A Folio in a process of its own, so a test can measure the server's memory alone:
 *   node --expose-gc -r ./test/support/register-ts.js test/upload/upload-server-process.ts
 * Talks over the IPC channel: sends `{ url }` when listening, answers `baseline` (collect
 * garbage, start watching the peak again) and `report` with its memory figures, ends on `stop`.
 */
import { startUploadServer } from './upload-server';

export interface MemoryReport {
  /** resident set size now */
  rss: number;
  /** highest RSS sampled (every 5 ms) since the last baseline */
  sampledPeak: number;
  /** the kernel's peak RSS over the whole process life */
  maxRss: number;
  /** V8's heap in use (after a collection, for `baseline`) */
  heapUsed: number;
}

const SAMPLE_EVERY_MS = 5;

const main = async () => {
  const server = await startUploadServer();
  let sampledPeak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  }, SAMPLE_EVERY_MS);
  const report = (): MemoryReport => ({ rss: process.memoryUsage.rss(), sampledPeak, maxRss: process.resourceUsage().maxRSS * 1024, heapUsed: process.memoryUsage().heapUsed });
  process.on('message', (message) => {
    if (message === 'baseline') {
      (globalThis as { gc?: () => void }).gc?.();
      sampledPeak = process.memoryUsage.rss();
      process.send?.(report());
    } else if (message === 'report') {
      process.send?.(report());
    } else if (message === 'stop') {
      clearInterval(sampler);
      void server.stop().then(() => process.exit(0));
    }
  });
  process.send?.({ url: server.url, dataDir: server.folio.services.dataDir });
};

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
