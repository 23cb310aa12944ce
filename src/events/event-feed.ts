import type { Outbox, StoredEvent } from './outbox';
import { createSingleFlightPoll } from './single-flight-poll';

/**
 * The outbox as a live stream for subscriptions. It follows the events collection by id, so a
 * subscriber on one instance sees writes made on another (polling every `pollInterval` ms while
 * anyone listens; a local write wakes it at once). Ids are taken before their write commits, so an
 * event may appear after one with a higher id (another write, here or on another instance, committed
 * first): the reader reads again from the highest id it had seen `settleMs` before, and hands each
 * event out once. Each listener has a bounded queue: one that falls `maxQueue` events behind is
 * dropped with a reason rather than buffered without bound.
 */

export class SlowConsumerError extends Error {
  constructor(readonly queued: number) {
    super(`subscription dropped: more than ${queued} events waited for this client`);
    this.name = 'SlowConsumerError';
  }
}

export class TooManySubscriptionsError extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} subscriptions may run for one client at a time`);
    this.name = 'TooManySubscriptionsError';
  }
}

export interface EventFeedOptions {
  outbox: Outbox;
  /** @default 250 */
  pollInterval?: number;
  /** @default 256 */
  maxQueue?: number;
  /** listeners one owner (a user, a token, an anonymous client's address) may hold at once. @default 100 */
  maxPerOwner?: number;
  /** how long after a later id an event may still commit and be delivered (a write's transaction time). @default 5000 */
  settleMs?: number;
  log?: (line: string) => void;
}

interface Listener {
  /** the last event before it started: it gets later ones only */
  after: number;
  accept(event: StoredEvent): boolean;
  push(event: StoredEvent): void;
}

const BATCH = 500;

export const createEventFeed = ({ outbox, pollInterval = 250, maxQueue = 256, maxPerOwner = 100, settleMs = 5_000, log = (line) => process.stderr.write(`${line}\n`) }: EventFeedOptions) => {
  const listeners = new Set<Listener>();
  const byOwner = new Map<string, number>();
  // every listener gets the same event object: work keyed on it is done once for all of them
  const sharedWork = new WeakMap<StoredEvent, Map<string, Promise<unknown>>>();
  // every event up to `settled` has been handed out or never will be; those above it already handed out are in `handed`
  let settled: number | undefined;
  const handed = new Set<number>();
  // the highest id seen at each read, until it is settleMs old
  const checkpoints: Array<{ at: number; highest: number }> = [];
  let stopped = false;

  const read = async () => {
    if (settled === undefined) return;
    const now = Date.now();
    while (checkpoints.length > 0 && checkpoints[0].at <= now - settleMs) settled = Math.max(settled, checkpoints.shift()!.highest);
    for (const id of handed) if (id <= settled) handed.delete(id);
    let position = settled;
    while (!stopped) {
      const events = await outbox.eventsAfter(position, BATCH);
      for (const event of events) {
        position = event.id;
        if (handed.has(event.id)) continue;
        handed.add(event.id);
        for (const listener of listeners) if (event.id > listener.after && listener.accept(event)) listener.push(event);
      }
      if (events.length < BATCH) break;
    }
    checkpoints.push({ at: now, highest: position });
  };

  const reads = createSingleFlightPoll({ pass: read, interval: pollInterval, wanted: () => listeners.size > 0, onError: (error) => log(`subscriptions: ${error.message}`) });
  reads.start(pollInterval);

  /**
   * Events matching `accept`, from now on (the stream's end when the promise resolves), until the
   * consumer returns or falls behind. An `owner` over `maxPerOwner` listeners is refused.
   */
  const listen = async (accept: (event: StoredEvent) => boolean, owner?: string): Promise<AsyncIterableIterator<StoredEvent>> => {
    if (owner !== undefined) {
      const held = byOwner.get(owner) ?? 0;
      if (held >= maxPerOwner) throw new TooManySubscriptionsError(maxPerOwner);
      byOwner.set(owner, held + 1);
    }
    let released = false;
    const release = () => {
      if (released || owner === undefined) return;
      released = true;
      const held = (byOwner.get(owner) ?? 1) - 1;
      if (held > 0) byOwner.set(owner, held);
      else byOwner.delete(owner);
    };
    const queue: StoredEvent[] = [];
    let wake: (() => void) | undefined;
    let failure: Error | undefined;
    let done = false;
    const after = await outbox.lastEventId().catch((error: unknown) => {
      release();
      throw error;
    });
    const listener: Listener = {
      after,
      accept,
      push(event) {
        if (queue.length >= maxQueue) {
          failure = new SlowConsumerError(maxQueue);
          listeners.delete(listener);
          release();
        } else queue.push(event);
        wake?.();
      },
    };
    // Nobody listened: the reader's position is stale, and nothing before `after` is wanted.
    if (listeners.size === 0) {
      settled = after;
      handed.clear();
      checkpoints.length = 0;
    }
    listeners.add(listener);
    reads.later();
    const iterator: AsyncIterableIterator<StoredEvent> = {
      [Symbol.asyncIterator]: () => iterator,
      async next() {
        while (!done) {
          if (queue.length > 0) return { done: false, value: queue.shift()! };
          if (failure) {
            done = true;
            throw failure;
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
        return { done: true, value: undefined };
      },
      async return() {
        done = true;
        listeners.delete(listener);
        release();
        wake?.();
        return { done: true, value: undefined };
      },
    };
    return iterator;
  };

  /** `work` for `event` under `key`, done once however many listeners ask (a read-back, a credential check). */
  const shared = <T>(event: StoredEvent, key: string, work: () => Promise<T>): Promise<T> => {
    let memo = sharedWork.get(event);
    if (!memo) sharedWork.set(event, (memo = new Map()));
    let pending = memo.get(key) as Promise<T> | undefined;
    if (!pending) memo.set(key, (pending = work()));
    return pending;
  };

  return {
    listen,
    shared,
    /** A local write committed: read now rather than at the next poll. */
    nudge: () => reads.soon(),
    /** resolves once a read begun after the call has handed out what was committed before it */
    readNow: () => reads.now(),
    listenerCount: () => listeners.size,
    async stop() {
      stopped = true;
      await reads.stop();
    },
  };
};

export type EventFeed = ReturnType<typeof createEventFeed>;
