/** The ContextEngine: levelled projection of durable messages into what the model sees (seed A9). */
export type * from "./types.js";
export type * from "./projection-types.js";
export { createContextEngine, type ContextEngineOptions } from "./context-engine.js";
export { memoryContextArchive } from "./memory-context-archive.js";
export {
  DEFAULT_CONTEXT_WINDOW,
  EMERGENCY_TAIL_CHARS,
  EMERGENCY_TAIL_MESSAGES,
  EXTERNALIZE_MIN_CHARS,
  EXTERNALIZE_PREVIEW_CHARS,
  LEVEL_1_THRESHOLD,
  LEVEL_2_THRESHOLD,
  LEVEL_3_THRESHOLD,
  LEVEL_4_THRESHOLD,
  PLANNER_TIMEOUT_MS,
  SHRINK_OLDER_CHARS,
  levelForPressure,
  type ContextLevel,
} from "./edits/context-levels.js";
export { prefixFingerprint, type StaticPrefix } from "./prefix-fingerprint.js";
export { nativeContextEdits } from "./edits/native-context-edits.js";
export {
  CONSTRAINT_PATTERN,
  GOAL_PATTERN,
  PINNED_FACTS_HEADER,
  extractFacts,
  pinnedFactsMessage,
} from "./edits/pinned-facts.js";
export { ARCHIVED_RESULT_PREFIX, EXTERNALIZED_RESULT_PREFIX } from "./edits/externalize-seen-results.js";
export { ARCHIVED_SEGMENT_PREFIX, SEGMENT_SUMMARY_HEADER } from "./apply-planner-proposal.js";
export { restoreContextState, type RestoredContextState } from "./restore-context-state.js";
export { estimateContextTokens } from "./estimate-context-tokens.js";
