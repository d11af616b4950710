import type { AgentContext } from "./middleware.js";

/** The delay before the first retry grows from this base, doubling per attempt. */
export const BACKOFF_BASE_MS = 250;

/** No retry waits longer than this, whatever the attempt. */
export const BACKOFF_CAP_MS = 8000;

/**
 * How long to wait before retry number `attempt` (1 for the first retry). It receives the context so the
 * default can draw randomness from `ctx.ports`; a seed-style `(n) => ms` function fits this type too.
 */
export type BackoffFn = (attempt: number, ctx: AgentContext) => number;

/** The upper bound of the jitter window for retry number `attempt`: `min(250 · 2^(attempt-1), 8000)` ms. */
export function backoffCeilingMs(attempt: number): number {
  // Clamp the exponent so a huge attempt number cannot overflow to Infinity before the cap applies.
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(BACKOFF_BASE_MS * 2 ** exponent, BACKOFF_CAP_MS);
}

/**
 * Full jitter: a uniform draw over `[0, ceiling)`. Spreading retries over the whole window keeps many
 * clients that failed together from retrying together. Randomness comes from the ports so workflow
 * replays wait the same amounts.
 */
export const fullJitterBackoff: BackoffFn = (attempt, ctx) => ctx.ports.random() * backoffCeilingMs(attempt);
