import { BUILTIN_COMPACTORS } from "../middleware/builtin-middleware-ids.js";
import { durableRef } from "../middleware/durable-ref.js";
import { AgentError } from "../vocabulary/errors.js";
import type { Message } from "../vocabulary/messages.js";
import { estimateTokens } from "./estimate-tokens.js";
import { splitTurns } from "./passes/split-turns.js";
import type { Compactor, TokenEstimator } from "./types.js";

/** Options of {@link tokenBudgetCompactor}. */
export interface TokenBudgetCompactorOptions {
  /** The token budget of the whole conversation (required, positive). */
  maxTokens: number;
  /** How to count tokens. Default {@link estimateTokens}. */
  estimator?: TokenEstimator;
  /** The newest turns kept even when they exceed the budget. Default 1 (never less). */
  minTailTurns?: number;
}

/**
 * For small local context windows: above `maxTokens`, keeps the newest turns that fit (at least `minTailTurns`) behind
 * a note `[N earlier turn(s) omitted to fit the local context budget]`, reporting `kind: "auto"`.
 * @throws AgentError when `maxTokens` is not a positive finite number.
 */
export function tokenBudgetCompactor(options: TokenBudgetCompactorOptions): Compactor {
  const { maxTokens } = options;
  if (!Number.isFinite(maxTokens) || maxTokens <= 0) {
    throw new AgentError(
      `tokenBudgetCompactor: maxTokens must be a positive finite number, got ${maxTokens}`,
    );
  }
  const estimate = options.estimator ?? estimateTokens;
  const minTailTurns = Math.max(1, options.minTailTurns ?? 1);
  return {
    ...durableRef(BUILTIN_COMPACTORS.tokenBudget, options),
    async maybeCompact(messages) {
      const before = await estimate(messages);
      if (before <= maxTokens) return { messages, before, after: before };
      const turns = splitTurns(messages);
      const kept = await countFittingTurns(turns, maxTokens, minTailTurns, estimate);
      const dropped = turns.length - kept;
      if (dropped <= 0) return { messages, before, after: before };
      const note: Message = {
        role: "user",
        content: `[${dropped} earlier turn(s) omitted to fit the local context budget]`,
      };
      const out = [note, ...turns.slice(dropped).flat()];
      return { messages: out, kind: "auto", before, after: await estimate(out) };
    },
  };
}

/** How many newest turns fit the budget, taking at least `minTurns` and stopping at the first that does not fit. */
async function countFittingTurns(
  turns: readonly Message[][],
  maxTokens: number,
  minTurns: number,
  estimate: TokenEstimator,
): Promise<number> {
  let kept = 0;
  let used = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const cost = await estimate(turns[i] ?? []);
    if (kept >= minTurns && used + cost > maxTokens) break;
    kept++;
    used += cost;
  }
  return kept;
}
