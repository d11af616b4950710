import { BUILTIN_MIDDLEWARE } from "./builtin-middleware-ids.js";
import { durableRef } from "./durable-ref.js";
import { AbortError, isAbortError, toAgentError } from "../vocabulary/errors.js";
import { retryBeforeFirstChunk } from "./retry-before-first-chunk.js";
import type { AgentContext, Middleware, ModelCall } from "./middleware.js";
import type { ModelChunk } from "../vocabulary/model.js";
import { fullJitterBackoff, type BackoffFn } from "./full-jitter-backoff.js";
import { isRetryableProviderError } from "./is-retryable-provider-error.js";

/** Options of {@link retry}. */
export interface RetryOptions {
  /** Extra attempts after the first one. Default 2 (three calls in all). */
  maxRetries?: number;
  /** Delay in ms before retry number `n` (1-based). Default: full jitter over `min(250·2^(n-1), 8000)`. */
  backoff?: BackoffFn;
  /** Whether an error deserves another attempt. Default: {@link isRetryableProviderError}. */
  retryOn?: (error: unknown) => boolean;
}

/** The default number of retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 2;

/**
 * Retries a model call that failed before its first chunk (after it, a retry would duplicate output already seen).
 * Each retry emits a non-fatal `error` event and waits `max(backoff(n), error.retryAfterMs)` through
 * `ctx.ports.sleep`; an abort, before or during the wait, ends the retries.
 */
export function retry(options: RetryOptions = {}): Middleware {
  const maxRetries = Math.max(0, Math.floor(options.maxRetries ?? DEFAULT_MAX_RETRIES));
  const backoff = options.backoff ?? fullJitterBackoff;
  const retryOn = options.retryOn ?? isRetryableProviderError;

  return {
    name: "retry",
    ...durableRef(BUILTIN_MIDDLEWARE.retry, options),
    wrapModelCall(ctx: AgentContext, next: ModelCall): AsyncIterable<ModelChunk> {
      return retryBeforeFirstChunk(next, async (error, attempt) => {
        if (attempt > maxRetries || isAborted(error, ctx) || !retryOn(error)) return false;
        ctx.emit({ type: "error", error: toAgentError(error), fatal: false });
        await waitBeforeRetry(ctx, retryDelayMs(error, attempt, backoff, ctx));
        return true;
      });
    },
  };
}

/** True when the failure is, or coincides with, an abort: neither is worth retrying. */
function isAborted(error: unknown, ctx: AgentContext): boolean {
  return ctx.signal.aborted || isAbortError(error);
}

/** The wait before retry `attempt`: the backoff, but never less than what the provider asked for. */
function retryDelayMs(error: unknown, attempt: number, backoff: BackoffFn, ctx: AgentContext): number {
  const jittered = backoff(attempt, ctx);
  const requested = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  const floor = typeof requested === "number" && Number.isFinite(requested) ? requested : 0;
  const delay = Math.max(Number.isFinite(jittered) ? jittered : 0, floor);
  return Math.max(0, delay);
}

/** Sleeps through the ports; the sleep rejects on abort, and the checks cover a port that does not. */
async function waitBeforeRetry(ctx: AgentContext, ms: number): Promise<void> {
  if (ctx.signal.aborted) throw new AbortError();
  await ctx.ports.sleep(ms, ctx.signal);
  if (ctx.signal.aborted) throw new AbortError();
}
