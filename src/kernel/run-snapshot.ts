import type { Message } from "./messages.js";
import type { Usage } from "./model.js";
import type { RestoredContextState } from "./context/restore-context-state.js";

/**
 * A run paused at a turn boundary, as plain data: enough to go on with the next turn somewhere else (the
 * workflow driver carries it across continue-as-new). Nothing in it refers to memory of the paused process.
 */
export interface RunSnapshot {
  /** The conversation so far, the run's own input and turns included. */
  messages: Message[];
  /** The last turn that finished; the resumed run starts with `turn + 1`. */
  turn: number;
  /** Turns counted against `maxTurns` (background joins do not count). */
  budgetUsed: number;
  /** Tokens the run has used so far. */
  usage: Usage;
  /** The ContextEngine's state (generation, facts, working state, archive refs), when it is on. */
  contextState?: RestoredContextState;
}

/**
 * How a driver pauses a run between turns. The kernel asks `requested()` before each turn after the first one
 * of this process (so every execution makes progress); when it says yes the kernel hands over its snapshot and
 * returns without `afterAgent` and without `done`: the run is not over, only moving.
 */
export interface SuspendPort {
  requested(): boolean;
  suspend(snapshot: RunSnapshot): void;
}
