/** The compaction toolbox: passes, compactors and the two compaction middlewares. */
export type {
  CompactPass,
  CompactResult,
  CompactionResult,
  Compactor,
  SpillStore,
  TokenEstimator,
} from "./types.js";
export { estimateTokens, IMAGE_TOKEN_ESTIMATE } from "./estimate-tokens.js";
export { splitTurns, isTurnStart } from "./passes/split-turns.js";
export { snipPass, type SnipPassOptions } from "./passes/snip-pass.js";
export { microPass, type MicroPassOptions } from "./passes/micro-pass.js";
export { SPILL_PREFIX, spillMarker, isSpilled, spillRef } from "./passes/spill-marker.js";
export { memorySpillStore } from "./memory-spill-store.js";
export {
  toolResultBudgetPass,
  type ToolResultBudgetOptions,
  type ToolResultBudgetPassOptions,
} from "./passes/tool-result-budget-pass.js";
export { runPipeline } from "./run-pipeline.js";
export { defaultCompactor, type DefaultCompactorOptions } from "./default-compactor.js";
export {
  llmCompactor,
  DEFAULT_SUMMARY_PROMPT,
  SUMMARY_HEADER,
  type LlmCompactorOptions,
} from "./llm-compactor.js";
export { tokenBudgetCompactor, type TokenBudgetCompactorOptions } from "./token-budget-compactor.js";
export { reactiveTrim, type ReactiveTrimOptions } from "./passes/reactive-trim.js";
export { isOverflowError } from "./is-overflow-error.js";
export { compaction } from "./compaction-middleware.js";
export { reactiveCompaction, type ReactiveCompactionOptions } from "./reactive-compaction.js";
