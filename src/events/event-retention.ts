import type { Outbox } from './outbox';

/**
 * Keeps the outbox from growing with every write for as long as the server runs: every `interval` ms, the
 * events older than `keep` ms whose deliveries all ended (outbox.prune) are removed, `batch` at a time and
 * at most `batchesPerRun` batches a run; while old ones are left, the next run comes after `backlogDelay` ms.
 * A backlog (a busy hour, a folder that ran long before this existed) so goes in small transactions between
 * the requests: on a copy of the benchmark's folder, 29,000 events went in 30 s for 770 ms of the main thread
 * (5.3 ms a batch of 200). A run goes on from where the last one stopped, past the events kept for a retry,
 * and starts over from the oldest once it has found none old enough.
 */

export interface EventRetentionOptions {
  outbox: Outbox;
  /** ms an event is kept once created: longer than any subscriber waits for a late commit (the feed's settleMs). @default 3,600,000 (an hour) */
  keep?: number;
  /** ms between runs. @default 60,000 */
  interval?: number;
  /** events looked at per batch. @default 200 */
  batch?: number;
  /** @default 5 */
  batchesPerRun?: number;
  /** ms before the next run while old events are left. @default 1,000 */
  backlogDelay?: number;
  log?: (line: string) => void;
}

export const createEventRetention = ({
  outbox,
  keep = 3_600_000,
  interval = 60_000,
  batch = 200,
  batchesPerRun = 5,
  backlogDelay = 1000,
  log = (line) => process.stderr.write(`${line}\n`),
}: EventRetentionOptions) => {
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  // the run under way: a stop waits for it, since it writes to the store that the close would cut
  let running: Promise<void> = Promise.resolve();
  let afterId = 0;

  /** whether every event old enough was looked at */
  const run = async (): Promise<boolean> => {
    for (let batches = 0; batches < batchesPerRun && !stopped; batches++) {
      const { last } = await outbox.prune(Date.now() - keep, batch, afterId);
      if (last === undefined) {
        afterId = 0;
        return true;
      }
      afterId = last;
    }
    return false;
  };

  const schedule = (delay: number) => {
    timer = setTimeout(tick, delay);
    timer.unref();
  };

  function tick() {
    running = run()
      .catch((error: Error) => {
        log(`events: ${error.message}`);
        return true;
      })
      .then((caughtUp) => {
        if (!stopped) schedule(caughtUp ? interval : backlogDelay);
      });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(interval);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
};
