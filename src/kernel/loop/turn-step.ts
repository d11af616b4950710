import type { BudgetOverrun } from "../vocabulary/budget.js";
import type { AgentEvent, StopReason } from "../vocabulary/events.js";
import type { ModelPhaseOutcome } from "../phases/model-phase.js";
import type { PreparedView } from "../phases/model-request.js";
import type { ToolPhaseSnapshot } from "../vocabulary/run-snapshot.js";
import type { ToolPhaseOutcome } from "../phases/tool-phase.js";
import type { ToolCall, ToolResult } from "../vocabulary/tools.js";
import type { PreparedContext } from "./turn-start.js";

/** Where the loop stands: the step it issued last, whose outcome it waits for. */
export type Label =
  | "open"
  | "opened"
  | "before_agent"
  | "ready"
  | "gate"
  | "over_budget"
  | "turn_started"
  | "injected"
  | "inject_sent"
  | "before_model"
  | "model_ready"
  | "prepared"
  | "context_sent"
  | "model"
  | "interrupted"
  | "model_failed"
  | "answered"
  | "follow_ups"
  | "steered"
  | "join"
  | "announced"
  | "tools"
  | "tools_closed"
  | "after_turn"
  | "turn_ended"
  | "suspending"
  | "failed"
  | "stopping"
  | "stopped";

/** The loop's state between two steps, as plain data: the machine never touches the run itself. */
export interface TurnState {
  readonly at: Label;
  /** The turn in progress, or the last one that finished. */
  readonly turn: number;
  /** The first turn of this process' run: the driver may move the run only after one turn ran here. */
  readonly firstTurn: number;
  /** Turns counted against `maxTurns` (background joins do not count). */
  readonly budgetUsed: number;
  readonly maxTurns: number;
  /** Whether a ContextEngine prepares each turn's view. */
  readonly hasEngine: boolean;
  /** A resumed run already ran its `beforeAgent` hooks where it started. */
  readonly resumed: boolean;
  /** A tool phase to go on with before anything else (a run resumed in it). */
  readonly toolPhase: ToolPhaseSnapshot | undefined;
  /** The ContextEngine's view for the turn's model call. */
  readonly view: PreparedView | undefined;
  /** Whether a hook aborted the run during the turn's tool phase. */
  readonly toolsAborted: boolean;
}

/** What the interpreter learned before a turn: the facts the machine decides on. */
export interface TurnCheck {
  aborted: boolean;
  /** The driver asked to move the run (asked only after a turn ran in this process and while not aborted). */
  suspendRequested: boolean;
  overrun: BudgetOverrun | undefined;
}

/** A step failed: what it threw, and whether the run was aborted or its consumer gone. */
export class Threw {
  constructor(
    readonly error: unknown,
    readonly aborted: boolean,
    readonly closed: boolean,
  ) {}
}

/** What performing a step gave back; which one depends on the step (on `TurnState.at`). */
export type Outcome =
  void | boolean | AgentEvent[] | TurnCheck | ModelPhaseOutcome | ToolPhaseOutcome | PreparedContext | Threw;

/** One thing the loop does next; `state` is what its outcome is read against. */
export type Step =
  /** Deliver the sink's queued events (with `drain`), then `events`; pause as a generator yielding them would. */
  | { kind: "emit"; drain: boolean; events: readonly AgentEvent[]; state: TurnState }
  | { kind: "hook"; hook: "beforeAgent" | "beforeModel" | "afterTurn"; state: TurnState }
  /** Look before a turn: aborted, a move requested (asked only with `askSuspend`), the budget overrun. */
  | { kind: "check_turn"; askSuspend: boolean; state: TurnState }
  | { kind: "start_turn"; turn: number; state: TurnState }
  /** Queued steers and background completions become user messages. */
  | { kind: "inject"; state: TurnState }
  | { kind: "prepare_context"; state: TurnState }
  | { kind: "call_model"; turn: number; view: PreparedView | undefined; state: TurnState }
  /** Run the calls that are not in `results` yet. */
  | { kind: "run_tools"; turn: number; calls: ToolCall[]; results: readonly ToolResult[]; state: TurnState }
  /** The tool phase is over: tell the driver, and pause after its live events. */
  | { kind: "close_tools"; state: TurnState }
  | { kind: "take_follow_ups"; state: TurnState }
  | { kind: "join_background"; state: TurnState }
  /** Hand the driver a snapshot to go on elsewhere (continue-as-new). */
  | { kind: "suspend"; turn: number; budgetUsed: number; state: TurnState }
  /** Cancel owned background work, run `afterAgent`, flush the log; gives the last events, `done` included. */
  | { kind: "stop"; reason: StopReason; state: TurnState }
  /** The run is over (or, `moved`, goes on elsewhere): return its result. */
  | { kind: "end"; moved: boolean }
  /** A failure the run does not turn into events (its consumer left, or the loop's own ending threw). */
  | { kind: "fail"; error: unknown };

/** The steps the interpreter performs; `end` and `fail` leave the loop. */
export type PerformedStep = Exclude<Step, { kind: "end" | "fail" }>;
