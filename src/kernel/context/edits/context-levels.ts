/** The window assumed when neither the options nor the provider give one. */
export const DEFAULT_CONTEXT_WINDOW = 32_000;

/** Above this fraction of the window, L1 externalises tool results the model has already seen. */
export const LEVEL_1_THRESHOLD = 0.65;

/** Above this fraction, L2 also drops duplicate reminder and background-completion notes. */
export const LEVEL_2_THRESHOLD = 0.75;

/** Above this fraction, L3 asks the planner (only when one is configured). */
export const LEVEL_3_THRESHOLD = 0.85;

/** Above this fraction, L4 pins the facts and shrinks every older segment. */
export const LEVEL_4_THRESHOLD = 0.95;

/** How long L3 waits for the planner before falling back, in ms. */
export const PLANNER_TIMEOUT_MS = 100;

/** L1 externalises only tool results at least this long, in characters. */
export const EXTERNALIZE_MIN_CHARS = 256;

/** The preview an externalised tool result keeps, in characters. */
export const EXTERNALIZE_PREVIEW_CHARS = 160;

/** L4 shrinks each text of an older segment to this many characters. */
export const SHRINK_OLDER_CHARS = 768;

/** L5 keeps this many characters of each of the last two messages. */
export const EMERGENCY_TAIL_CHARS = 512;

/** How many trailing messages the L5 emergency view keeps. */
export const EMERGENCY_TAIL_MESSAGES = 2;

/** A ContextEngine level: 0 = nothing done … 5 = emergency view. */
export type ContextLevel = 0 | 1 | 2 | 3 | 4 | 5;

/**
 * The level a pressure alone calls for. Without a planner, L3 does not exist and the L2 behaviour applies up to
 * the L4 threshold. The engine re-measures between levels, so the level it reports can be lower than this.
 */
export function levelForPressure(tokens: number, windowTokens: number, hasPlanner: boolean): ContextLevel {
  const fraction = tokens / windowTokens;
  if (fraction > LEVEL_4_THRESHOLD) return 4;
  if (fraction > LEVEL_3_THRESHOLD && hasPlanner) return 3;
  if (fraction > LEVEL_2_THRESHOLD) return 2;
  if (fraction > LEVEL_1_THRESHOLD) return 1;
  return 0;
}
