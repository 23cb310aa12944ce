import { rateLimitError } from '../errors/graphql-errors';
import type { Store } from '../storage/types';
import { onceUntilFailure } from '../common/once-until-failure';

/**
 * A sliding window per key (the client address): at most `max` hits in any `windowMs`. The hits are
 * documents in the store (`folio_rate_limits`), so every instance on one database counts the same
 * attempts. A hit is recorded, then the window counted again: two instances racing for the last
 * attempt may both be refused, never both let through. A refused hit is not recorded, so a flood
 * adds nothing past `max` per window; entries carry their expiry time and expired ones are pruned.
 */

export const RATE_LIMITS_COLLECTION = 'folio_rate_limits';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** when the oldest hit in the window leaves it (ms since the epoch) */
  resetAt: number;
}

export interface RateLimiter {
  hit(key: string, now?: number): Promise<RateLimitDecision>;
}

export const createRateLimiter = (store: Store, { max, windowMs }: { max: number; windowMs: number }): RateLimiter => {
  const hits = store.collection(RATE_LIMITS_COLLECTION);
  const ready = onceUntilFailure(() => Promise.all([hits.createIndex({ keys: [['key', 1], ['at', 1]] }), hits.createIndex({ keys: [['expiresAt', 1]] })]));
  let nextPrune = 0;

  // once a window per instance is enough: a stale entry is outside every window already, only its space is kept
  const prune = async (now: number) => {
    if (now < nextPrune) return;
    nextPrune = now + windowMs;
    await hits.deleteMany({ expiresAt: { $lte: now } });
  };

  return {
    async hit(key, now = Date.now()) {
      await ready();
      await prune(now);
      const inWindow = { key, at: { $gt: now - windowMs } };
      let count = await hits.countDocuments(inWindow);
      const allowed = count < max;
      if (allowed) {
        await hits.insertOne({ key, at: now, expiresAt: now + windowMs });
        count = await hits.countDocuments(inWindow);
      } else count += 1;
      const oldest = await hits.findOne(inWindow, { sort: [['at', 1]], projection: ['at'] });
      return {
        allowed: allowed && count <= max,
        limit: max,
        remaining: Math.max(0, max - count),
        resetAt: (typeof oldest?.at === 'number' ? oldest.at : now) + windowMs,
      };
    },
  };
};

/** 429 with `Retry-After` once a client is over its limit. */
export const refuseOverLimit = (decision: RateLimitDecision, now = Date.now()): void => {
  if (!decision.allowed) throw rateLimitError(Math.max(1, Math.ceil((decision.resetAt - now) / 1000)));
};
