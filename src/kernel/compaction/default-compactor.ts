import { BUILTIN_COMPACTORS } from "../middleware/builtin-middleware-ids.js";
import { durableRef } from "../middleware/durable-ref.js";
import { estimateTokens } from "./estimate-tokens.js";
import { microPass } from "./passes/micro-pass.js";
import { runPipeline } from "./run-pipeline.js";
import { snipPass } from "./passes/snip-pass.js";
import { toolResultBudgetPass } from "./passes/tool-result-budget-pass.js";
import type { CompactPass, Compactor, SpillStore } from "./types.js";

/** Options of {@link defaultCompactor}. */
export interface DefaultCompactorOptions {
  /** snip: snip only beyond this many messages. Default 50. */
  maxMessages?: number;
  /** snip: leading turns always kept. Default 1. */
  headTurns?: number;
  /** snip: keep trailing turns until this many messages are kept. Default 20. */
  tailKeep?: number;
  /** micro: how many recent tool results keep their body. Default 3. */
  keepRecentToolResults?: number;
  /** When set, oversized tool results are spilled here first (see `toolResultBudgetPass`). */
  spillStore?: SpillStore;
  /** spill: the in-context budget of tool-result bodies. Default 200_000. */
  budgetBytes?: number;
  /** Replaces the whole pipeline. */
  passes?: CompactPass[];
}

/**
 * A compactor that uses no model: the pipeline `[spill?] → snip → micro`, cheap structural passes first.
 * It reports `kind: "micro"` with before/after token estimates when it changed something, and returns the input
 * array itself (before = after) when it did not.
 */
export function defaultCompactor(options: DefaultCompactorOptions = {}): Compactor {
  const passes = options.passes ?? defaultPasses(options);
  return {
    ...durableRef(BUILTIN_COMPACTORS.default, options),
    maybeCompact(messages) {
      const before = estimateTokens(messages);
      const out = runPipeline(passes, messages);
      if (out === messages) return { messages, before, after: before };
      return { messages: out, kind: "micro", before, after: estimateTokens(out) };
    },
  };
}

/** The default pipeline for the given options. */
function defaultPasses(options: DefaultCompactorOptions): CompactPass[] {
  const { spillStore } = options;
  const spill = spillStore
    ? [toolResultBudgetPass({ store: spillStore, budgetBytes: options.budgetBytes })]
    : [];
  return [
    ...spill,
    snipPass({ maxMessages: options.maxMessages, headTurns: options.headTurns, tailKeep: options.tailKeep }),
    microPass({ keepRecent: options.keepRecentToolResults }),
  ];
}
