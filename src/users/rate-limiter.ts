import { rateLimitError } from '../errors/graphql-errors';

/**
 * A fixed window per key (the client IP): `max` hits per `windowMs`. Windows that have ended are swept
 * as new ones open, so the map holds at most the clients seen in the last window.
 */

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** when the current window ends (ms since the epoch) */
  resetAt: number;
}

export interface RateLimiter {
  hit(key: string, now?: number): RateLimitDecision;
}

export const createRateLimiter = ({ max, windowMs }: { max: number; windowMs: number }): RateLimiter => {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = 0;
  const sweep = (now: number) => {
    if (now < nextSweep) return;
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
    nextSweep = now + windowMs;
  };
  return {
    hit(key, now = Date.now()) {
      sweep(now);
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { allowed: window.count <= max, limit: max, remaining: Math.max(0, max - window.count), resetAt: window.resetAt };
    },
  };
};

/** 429 with `Retry-After` once a client is over its limit. */
export const refuseOverLimit = (decision: RateLimitDecision, now = Date.now()): void => {
  if (!decision.allowed) throw rateLimitError(Math.max(1, Math.ceil((decision.resetAt - now) / 1000)));
};
