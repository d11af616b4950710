import { BUILTIN_MIDDLEWARE } from "../middleware/builtin-middleware-ids.js";
import type { Message } from "../vocabulary/messages.js";
import type { Middleware } from "../middleware/middleware.js";
import { ZERO_USAGE } from "../vocabulary/model.js";
import { estimateTokens } from "./estimate-tokens.js";
import type { Compactor } from "./types.js";

/**
 * A `beforeModel` middleware that runs `compactor.maybeCompact(ctx.messages, ZERO_USAGE)` before every model call;
 * when the messages changed it replaces `ctx.messages` (persisting into later turns) and emits
 * `{type: "compaction", kind, before, after}`.
 */
export function compaction(compactor: Compactor): Middleware {
  return {
    name: "compaction",
    // Durable when the compactor is a built-in with plain options (defaultCompactor, tokenBudgetCompactor).
    ...(compactor.durable
      ? { durable: { id: BUILTIN_MIDDLEWARE.compaction, options: compactor.durable } }
      : {}),
    async beforeModel(ctx) {
      const current = ctx.messages;
      const result = await compactor.maybeCompact(current, ZERO_USAGE, undefined, ctx.signal);
      if (sameMessages(current, result.messages)) return;
      ctx.messages = result.messages;
      ctx.emit({
        type: "compaction",
        kind: result.kind ?? "micro",
        before: result.before ?? estimateTokens(current),
        after: result.after ?? estimateTokens(result.messages),
      });
    },
  };
}

/** True when two conversations hold the same message objects in the same order. */
function sameMessages(a: readonly Message[], b: readonly Message[]): boolean {
  return a === b || (a.length === b.length && a.every((message, i) => message === b[i]));
}
