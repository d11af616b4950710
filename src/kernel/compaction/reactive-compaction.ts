import { BUILTIN_MIDDLEWARE } from "../middleware/builtin-middleware-ids.js";
import { durableRef } from "../middleware/durable-ref.js";
import type { Message } from "../vocabulary/messages.js";
import { retryBeforeFirstChunk } from "../middleware/retry-before-first-chunk.js";
import type { Middleware } from "../middleware/middleware.js";
import { estimateTokens } from "./estimate-tokens.js";
import { isOverflowError } from "./is-overflow-error.js";
import { reactiveTrim } from "./passes/reactive-trim.js";

/** Options of {@link reactiveCompaction}. */
export interface ReactiveCompactionOptions {
  /** How to shrink the conversation after an overflow. Default `reactiveTrim` with its defaults. */
  trim?: (messages: Message[]) => Message[];
  /** Whether an error is a context overflow. Default {@link isOverflowError}. */
  isOverflow?: (error: unknown) => boolean;
  /** Trim-and-retry rounds per model call. Default 1. */
  maxAttempts?: number;
}

/**
 * A `wrapModelCall` middleware that recovers from a context overflow thrown before any chunk: trims `ctx.messages`,
 * emits `{type: "compaction", kind: "auto"}` and calls `next()` again (re-encoded). Rethrows once a chunk was yielded
 * (a retry would duplicate output), after `maxAttempts` retries, on abort, and when the trim removed nothing.
 */
export function reactiveCompaction(options: ReactiveCompactionOptions = {}): Middleware {
  const trim = options.trim ?? ((messages: Message[]) => reactiveTrim(messages));
  const isOverflow = options.isOverflow ?? isOverflowError;
  const maxAttempts = options.maxAttempts ?? 1;
  return {
    name: "reactive-compaction",
    ...durableRef(BUILTIN_MIDDLEWARE.reactiveCompaction, options),
    wrapModelCall(ctx, next) {
      return retryBeforeFirstChunk(next, (error, attempt) => {
        if (attempt > maxAttempts || ctx.signal.aborted || !isOverflow(error)) return false;
        const before = estimateTokens(ctx.messages);
        const trimmed = trim(ctx.messages);
        if (trimmed === ctx.messages) return false;
        ctx.messages = trimmed;
        ctx.emit({ type: "compaction", kind: "auto", before, after: estimateTokens(trimmed) });
        return true;
      });
    },
  };
}
