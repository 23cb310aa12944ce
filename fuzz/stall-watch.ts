import { setTimeout as sleep } from 'node:timers/promises';
import type { Vitals } from './fuzz-server';

/**
 * Watches the server's event loop and memory beside the fuzz traffic: every SCRAPE_EVERY_MS it reads the longest
 * delay since the previous read (`/metrics`, `nodejs_eventloop_lag_max_seconds`) and the resident memory
 * (`process_resident_memory_bytes`); the first delay over MAX_LAG_SECONDS is a stall, and memory over
 * MAX_RSS_BYTES a failure too, each named with its window and what was sent in it. The fuzzer sends one request
 * at a time, so a window holds a handful: those that overlapped it are the suspects.
 *
 * Cheap on both sides: one scrape in flight at a time, a gauge found by indexOf; requests are logged as a
 * time and a function that describes them, called only when a stall is reported; the log holds what
 * overlaps the current window and nothing older.
 */

export const MAX_LAG_SECONDS = 0.2;
/** issue 35: under the fuzzer the server stays within 600 MB resident */
export const MAX_RSS_BYTES = 600 * 1024 * 1024;
const SCRAPE_EVERY_MS = 300;
/** suspects named in a report, the rest counted; each description cut, so a report stays readable */
const MAX_NAMED = 12;
const MAX_DESCRIPTION = 400;

export interface StallWatch {
  /** notes something sent to the server (a request, the digest's reads); call the result once answered */
  sending(describe: () => string): () => void;
  /** the first stall (or failed scrape) seen so far */
  failure(): StallError | undefined;
  /** the longest delay seen in any window, in seconds */
  maxLag(): number;
  /** the most resident memory seen at a scrape, in bytes */
  maxRss(): number;
  /** stops the watch after a last scrape, which covers the end of the run */
  stop(): Promise<StallError | undefined>;
}

/** A stall is the run's failure, though no one request of it failed: fast-check's counterexample is only the request at hand. */
export class StallError extends Error {}

const cut = (text: string) => (text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION)}… (${text.length} characters)` : text);

interface Sent {
  describe: () => string;
  /** ms since the watch started */
  start: number;
  end?: number;
}

/**
 * Starts watching once the server is ready and seeded: a first scrape closes the window of its start-up
 * (loading, seeding, SQLite's first statements), which is not judged; its lag is returned for the log.
 */
export const startStallWatch = async (vitals: () => Promise<Vitals>): Promise<{ watch: StallWatch; startupLag: number }> => {
  const { lag: startupLag } = await vitals();
  const origin = Date.now();
  const now = () => Date.now() - origin;
  let log: Sent[] = [];
  let found: StallError | undefined;
  let maxLag = 0;
  let maxRss = 0;
  let stopped = false;
  /** when the scrape that opened the current window was sent: the server resets its monitor while it answers it */
  let windowStart = 0;

  const report = (what: string, windowEnd: number): StallError => {
    // the slowest first: a request that held the loop was slow itself, whatever else was sent beside it
    const took = (sent: Sent) => (sent.end ?? windowEnd) - sent.start;
    const suspects = log.filter((sent) => sent.start < windowEnd && (sent.end === undefined || sent.end > windowStart)).sort((a, b) => took(b) - took(a));
    const named = suspects.slice(0, MAX_NAMED).map((sent) => `\n    [sent at ${sent.start} ms, ${sent.end === undefined ? 'unanswered' : `answered in ${took(sent)} ms`}] ${cut(sent.describe())}`);
    const more = suspects.length > MAX_NAMED ? `\n    … and ${suspects.length - MAX_NAMED} more` : '';
    return new StallError(
      `${what} in the window ${windowStart}–${windowEnd} ms after the watch started; ` +
        `${suspects.length} sent in it, the slowest first:${named.join('')}${more}`,
    );
  };

  /** One window closed: its lag judged, the log cut to what may overlap the next one. */
  const scrape = async () => {
    const sentAt = now();
    let lag: number;
    let rss: number;
    try {
      ({ lag, rss } = await vitals());
    } catch (error) {
      found ??= new StallError(`scraping /metrics failed at ${sentAt} ms: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const answeredAt = now();
    maxLag = Math.max(maxLag, lag);
    maxRss = Math.max(maxRss, rss);
    if (lag > MAX_LAG_SECONDS) found ??= report(`the event loop stalled ${(lag * 1000).toFixed(0)} ms (over ${MAX_LAG_SECONDS * 1000} ms)`, answeredAt);
    if (rss > MAX_RSS_BYTES) found ??= report(`the server held ${(rss / 2 ** 20).toFixed(0)} MB resident (over ${MAX_RSS_BYTES / 2 ** 20} MB)`, answeredAt);
    windowStart = sentAt;
    log = log.filter((sent) => sent.end === undefined || sent.end > sentAt);
  };

  const loop = (async () => {
    while (!stopped && !found) {
      await sleep(SCRAPE_EVERY_MS);
      if (!stopped) await scrape();
    }
  })();

  const watch: StallWatch = {
    sending(describe) {
      const sent: Sent = { describe, start: now() };
      log.push(sent);
      return () => {
        sent.end = now();
      };
    },
    failure: () => found,
    maxLag: () => maxLag,
    maxRss: () => maxRss,
    async stop() {
      stopped = true;
      await loop;
      if (!found) await scrape();
      return found;
    },
  };
  return { watch, startupLag };
};
