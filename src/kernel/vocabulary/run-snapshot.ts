import type { Message } from "./messages.js";
import type { Usage } from "./model.js";
import type { RestoredContextState } from "../context/restore-context-state.js";
import type { ToolCall, ToolResult } from "./tools.js";

/**
 * A paused run, as plain data: enough to go on somewhere else (the workflow driver carries it across
 * continue-as-new). Nothing in it refers to memory of the paused process. Paused at a turn boundary, or, with
 * `toolPhase`, in the middle of a turn's tool phase.
 */
export interface RunSnapshot {
  /** The conversation so far, the run's own input and turns included (in a tool phase: up to the model's answer). */
  messages: Message[];
  /** The last turn that finished, and the resumed run starts with `turn + 1`; with `toolPhase`, the turn in progress. */
  turn: number;
  /** Turns counted against `maxTurns` (background joins do not count). */
  budgetUsed: number;
  /** Tokens the run has used so far. */
  usage: Usage;
  /** The ContextEngine's state (generation, facts, working state, archive refs), when it is on. */
  contextState?: RestoredContextState;
  /** Set when the run paused in turn `turn`'s tool phase: the resumed run goes on there. */
  toolPhase?: ToolPhaseSnapshot;
}

/** A tool phase paused before all its calls finished. */
export interface ToolPhaseSnapshot {
  /** The turn's calls, in call order (the model's answer that asked for them ends the snapshot's `messages`). */
  calls: ToolCall[];
  /** The results of the calls that finished before the pause: kept as they are, those calls never run again. */
  results: ToolResult[];
}

/** A tool phase in progress, as the kernel shows it to its driver. */
export interface OpenToolPhase {
  /** The ids of the calls that have not finished, in call order. */
  open(): string[];
  /** The run paused here, now: the turn's calls and the results so far. */
  snapshot(): RunSnapshot;
}

/**
 * How a driver pauses a run: before each turn but this process's first (so each execution progresses) the kernel asks
 * `requested()`; on yes it hands over its snapshot and returns without `afterAgent` or `done`. A driver may also stop
 * in a tool phase (`toolPhase`): unfinished calls rerun from the start, and the driver drops their repeated events.
 */
export interface SuspendPort {
  requested(): boolean;
  suspend(snapshot: RunSnapshot): void;
  /** Told when a turn's tool phase begins (where it stands) and when it ends (`undefined`). */
  toolPhase?(phase: OpenToolPhase | undefined): void;
}
