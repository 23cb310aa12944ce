import { AsyncResource } from 'node:async_hooks';

export interface SingleFlightPollOptions {
  /** one pass over what is due; never two at once */
  pass: () => Promise<void>;
  /** ms to the next pass when nothing asks sooner */
  interval: number;
  /** whether passes are wanted now: a feed nobody listens to rests */
  wanted?: () => boolean;
  onError: (error: Error) => void;
}

export interface SingleFlightPoll {
  /** passes from `delay` ms on */
  start(delay: number): void;
  /** a pass now rather than at the next interval (something may be due: a write committed) */
  soon(): void;
  /** a pass after the interval */
  later(): void;
  /** resolves once a pass that began after this call has ended (at once when stopped or not wanted) */
  now(): Promise<void>;
  /** no more passes; waits for the one under way, which reads what a close would cut */
  stop(): Promise<void>;
}

/**
 * `pass` every `interval` ms, or at once when asked, one at a time: asked while a pass is under way,
 * it runs again right after it. Timers are made in the context the poll was made in: asks come from
 * inside a write's transaction, which a pass must not carry (it would join the transaction, or find
 * its session ended).
 */
export const createSingleFlightPoll = ({ pass, interval, wanted = () => true, onError }: SingleFlightPollOptions): SingleFlightPoll => {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = true;
  let underWay: Promise<void> = Promise.resolve();
  // callers of `now` waiting for the next pass to begin and end
  let waiting: Array<() => void> = [];
  const release = (): void => {
    const waiters = waiting;
    waiting = [];
    for (const resolve of waiters) resolve();
  };

  const schedule = AsyncResource.bind((delay: number) => {
    clearTimeout(timer);
    if (stopped || !wanted()) return release();
    timer = setTimeout(run, delay);
    timer.unref();
  });

  function run() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    const waiters = waiting;
    waiting = [];
    underWay = pass()
      .catch(onError)
      .finally(() => {
        for (const resolve of waiters) resolve();
        running = false;
        const delay = again ? 0 : interval;
        again = false;
        schedule(delay);
      });
  }

  return {
    start(delay) {
      stopped = false;
      schedule(delay);
    },
    soon: () => schedule(0),
    later: () => schedule(interval),
    now() {
      const passed = new Promise<void>((resolve) => waiting.push(resolve));
      if (running) again = true;
      else schedule(0);
      return passed;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      release();
      await underWay;
    },
  };
};
