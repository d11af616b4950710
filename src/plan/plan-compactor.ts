import type { CompactionPlan } from "../contract/agent-plan.js";
import { defaultCompactor } from "../kernel/compaction/default-compactor.js";
import { estimateTokens } from "../kernel/compaction/estimate-tokens.js";
import { llmCompactor } from "../kernel/compaction/llm-compactor.js";
import type { Compactor } from "../kernel/compaction/types.js";
import type { ModelProvider } from "../kernel/vocabulary/model.js";

/** The token threshold of a plan that names none (the kernel's `llmCompactor` default). */
export const DEFAULT_COMPACTION_THRESHOLD = 120_000;

/** Where the summaries of the `llm` strategy come from. */
export interface SummarySource {
  /** The provider that writes summaries (in durable runs, a `callModel` activity per call). */
  provider: ModelProvider;
  /** The agent's model id; the plan's `summaryModel` replaces it. */
  model: string;
}

/**
 * The compactor a plan describes, the same in-process and in the workflow. `default`: `defaultCompactor` above the
 * threshold. `llm`: `llmCompactor` over a base that changes nothing, so the summary covers every older turn (a snip
 * first would drop turns the summary never saw).
 */
export function planCompactor(plan: CompactionPlan, summaries: SummarySource): Compactor {
  const threshold = plan.tokenThreshold ?? DEFAULT_COMPACTION_THRESHOLD;
  if (plan.strategy === "default") {
    const passes = defaultCompactor({
      ...(plan.maxMessages !== undefined ? { maxMessages: plan.maxMessages } : {}),
      ...(plan.keepRecentToolResults !== undefined
        ? { keepRecentToolResults: plan.keepRecentToolResults }
        : {}),
    });
    return aboveThreshold(threshold, passes);
  }
  return llmCompactor({
    provider: summaries.provider,
    model: plan.summaryModel ?? summaries.model,
    base: UNCHANGED,
    tokenThreshold: threshold,
    ...(plan.keepRecentTurns !== undefined ? { keepRecentTurns: plan.keepRecentTurns } : {}),
    ...(plan.summaryPrompt !== undefined ? { summaryPrompt: plan.summaryPrompt } : {}),
    ...(plan.maxFailures !== undefined ? { maxFailures: plan.maxFailures } : {}),
  });
}

/** A compactor that keeps the conversation as it is. */
const UNCHANGED: Compactor = { maybeCompact: (messages) => ({ messages }) };

/**
 * Runs `inner` only while the conversation is above `threshold` tokens: the model-free passes would otherwise
 * rewrite a small conversation every turn (each rewrite is a compaction, archived in durable runs).
 */
function aboveThreshold(threshold: number, inner: Compactor): Compactor {
  return {
    maybeCompact(messages, usage, instructions, signal) {
      const before = estimateTokens(messages);
      if (before <= threshold) return { messages, before, after: before };
      return inner.maybeCompact(messages, usage, instructions, signal);
    },
  };
}
