import type { EventFeed } from '../../events/event-feed';
import type { StoredEvent } from '../../events/outbox';

/**
 * Writes any instance makes reach the response cache through the content events: the outbox every instance
 * on one database shares, which the feed polls (every 250 ms while someone listens). So another instance's
 * write drops this one's answers holding its type within about that delay. A reader that fell behind, or a
 * store that did not answer, cannot know what it missed: then every answer goes. The events of this instance's own
 * writes (`recordedHere`) are skipped: their answers went at the write, and dropped again when the event came back
 * (right after the commit, or a poll later), they took the answers read meanwhile with them.
 */

const RETRY_MS = 1000;

export interface FollowedWrites {
  stop(): Promise<void>;
}

export const followWrites = (feed: Pick<EventFeed, 'listen'>, recordedHere: (event: StoredEvent) => boolean, onWrite: (uid: string) => void, onMissed: () => void): FollowedWrites => {
  let stream: AsyncIterableIterator<StoredEvent> | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const follow = async () => {
    try {
      stream = await feed.listen(() => true);
      for await (const event of stream) if (!recordedHere(event)) onWrite(event.uid);
    } catch {
      onMissed();
      if (!stopped) {
        retry = setTimeout(() => void follow(), RETRY_MS);
        retry.unref();
      }
    }
  };
  void follow();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await stream?.return?.();
    },
  };
};
