import { toAgentError } from "../vocabulary/errors.js";
import type { AgentEvent, StopReason } from "../vocabulary/events.js";
import type { ModelPhaseOutcome } from "../phases/model-phase.js";
import type { PreparedView } from "../phases/model-request.js";
import type { RunSnapshot } from "../vocabulary/run-snapshot.js";
import type { ToolPhaseOutcome } from "../phases/tool-phase.js";
import type { PreparedContext } from "./turn-start.js";
import { Threw, type Label, type Outcome, type Step, type TurnCheck, type TurnState } from "./turn-step.js";

/** The state of a run whose session is open, before its first step. */
export function initialTurnState(
  resume: RunSnapshot | undefined,
  maxTurns: number,
  hasEngine: boolean,
): TurnState {
  const turn = resume?.turn ?? 0;
  return {
    at: "open",
    turn,
    firstTurn: turn,
    budgetUsed: resume?.budgetUsed ?? 0,
    maxTurns,
    hasEngine,
    resumed: resume !== undefined,
    toolPhase: resume?.toolPhase,
    view: undefined,
    toolsAborted: false,
  };
}

/**
 * The turn loop as a pure function: given where the loop stands and what its last step gave back, the step to take
 * next. Encode → call model → decode → execute tools → feed back, until the model stops, the run is aborted, a
 * limit is reached or the driver moves the run; a failure ends with an `error` event and `done(error)`.
 */
export function nextStep(state: TurnState, outcome: Outcome): Step {
  if (outcome instanceof Threw) return afterThrow(state, outcome);
  return (AFTER[state.at] as (state: TurnState, outcome: Outcome) => Step)(state, outcome);
}

/** Where a throw is the run's failure (the loop's try): everywhere but its opening delivery and its ending. */
const UNGUARDED: ReadonlySet<Label> = new Set<Label>(["opened", "failed", "stopping", "stopped"]);

function afterThrow(state: TurnState, threw: Threw): Step {
  if (threw.closed || UNGUARDED.has(state.at)) return { kind: "fail", error: threw.error };
  if (threw.aborted) return stop(state, "aborted");
  const error: AgentEvent = { type: "error", error: toAgentError(threw.error), fatal: true };
  return emit(at(state, "failed"), [error], true);
}

/** What follows each step, by the label it was issued under; each reads the outcome that step gives. */
const AFTER: { [At in Label]: (state: TurnState, outcome: never) => Step } = {
  open: (state) => emit(at(state, "opened"), [], true),
  opened: (state) =>
    state.resumed
      ? emit(at(state, "ready"), [], true)
      : { kind: "hook", hook: "beforeAgent", state: at(state, "before_agent") },
  before_agent: (state) => emit(at(state, "ready"), [], true),
  ready: (state) => (state.toolPhase ? runTools(state) : checkTurn(state)),
  gate: afterCheck,
  over_budget: (state) => stop(state, "budget"),
  turn_started: (state) => ({ kind: "inject", state: at(state, "injected") }),
  injected: (state, events: AgentEvent[]) =>
    events.length > 0 ? emit(at(state, "inject_sent"), events) : beforeModel(state),
  inject_sent: beforeModel,
  before_model: (state) => emit(at(state, "model_ready"), [], true),
  model_ready: (state) =>
    state.hasEngine ? { kind: "prepare_context", state: at(state, "prepared") } : callModel(state, undefined),
  prepared: (state, prepared: PreparedContext) =>
    emit(at(state, "context_sent", { view: prepared.view }), prepared.events),
  context_sent: (state) => callModel(state, state.view),
  model: afterModel,
  interrupted: checkTurn,
  model_failed: (state) => stop(state, "error"),
  answered: (state) => ({ kind: "take_follow_ups", state: at(state, "follow_ups") }),
  follow_ups: (state, events: AgentEvent[]) =>
    events.length > 0
      ? emit(at(state, "steered"), events)
      : { kind: "join_background", state: at(state, "join") },
  steered: checkTurn,
  join: (state, joined: boolean) =>
    joined ? checkTurn(at(state, "join", { budgetUsed: state.budgetUsed - 1 })) : stop(state, "stop"),
  announced: runTools,
  tools: (state, tools: ToolPhaseOutcome) => ({
    kind: "close_tools",
    state: at(state, "tools_closed", { toolsAborted: tools.aborted }),
  }),
  tools_closed: (state) => ({ kind: "hook", hook: "afterTurn", state: at(state, "after_turn") }),
  after_turn: (state) =>
    emit(at(state, "turn_ended"), [{ type: "turn_end", turn: state.turn, stopReason: "tool_use" }], true),
  turn_ended: (state) => (state.toolsAborted ? stop(state, "aborted") : checkTurn(state)),
  suspending: () => ({ kind: "end", moved: true }),
  failed: (state) => stop(state, "error"),
  stopping: (state, events: AgentEvent[]) => emit(at(state, "stopped"), events),
  stopped: () => ({ kind: "end", moved: false }),
};

/** Before each turn: aborted, moved, out of turns or over budget, in that order; else the next turn starts. */
function afterCheck(state: TurnState, check: TurnCheck): Step {
  if (check.aborted) return stop(state, "aborted");
  if (check.suspendRequested) {
    const { turn, budgetUsed } = state;
    return { kind: "suspend", turn, budgetUsed, state: at(state, "suspending") };
  }
  if (state.budgetUsed >= state.maxTurns) return stop(state, "max_turns");
  if (check.overrun) return emit(at(state, "over_budget"), [{ type: "budget_exceeded", ...check.overrun }]);
  const turn = state.turn + 1;
  const next = at(state, "turn_started", { turn, budgetUsed: state.budgetUsed + 1 });
  return { kind: "start_turn", turn, state: next };
}

/** The model's answer: stop, re-plan, fail, end the turn without tools, or announce its calls and run them. */
function afterModel(state: TurnState, model: ModelPhaseOutcome): Step {
  const { turn } = state;
  if (model.kind === "aborted") return stop(state, "aborted");
  // Re-plan at once: the next turn starts with whatever was steered in.
  if (model.kind === "interrupted")
    return emit(at(state, "interrupted"), [{ type: "turn_end", turn, stopReason: "interrupted" }]);
  if (model.kind === "error")
    return emit(at(state, "model_failed"), [{ type: "error", error: model.error, fatal: true }]);
  const calls = model.decoded.calls;
  if (calls.length === 0) {
    // An answer cut off at the output limit says so (the seed's `max_tokens`); the run still stops here.
    const stopReason = model.stopReason === "max_tokens" ? "max_tokens" : "stop";
    return emit(at(state, "answered"), [{ type: "turn_end", turn, stopReason }]);
  }
  const toolPhase = { calls, results: [] };
  return emit(
    at(state, "announced", { toolPhase }),
    calls.map((call) => ({ type: "tool_use", call })),
  );
}

/** The tool phase of the turn: the answer's calls, or a resumed phase's that had not finished. */
function runTools(state: TurnState): Step {
  const { calls, results } = state.toolPhase!;
  const next = at(state, "tools", { toolPhase: undefined });
  return { kind: "run_tools", turn: state.turn, calls, results, state: next };
}

function checkTurn(state: TurnState): Step {
  return { kind: "check_turn", askSuspend: state.turn > state.firstTurn, state: at(state, "gate") };
}

function beforeModel(state: TurnState): Step {
  return { kind: "hook", hook: "beforeModel", state: at(state, "before_model") };
}

function callModel(state: TurnState, view: PreparedView | undefined): Step {
  return { kind: "call_model", turn: state.turn, view, state: at(state, "model", { view: undefined }) };
}

function emit(next: TurnState, events: readonly AgentEvent[], drain = false): Step {
  return { kind: "emit", drain, events, state: next };
}

function stop(state: TurnState, reason: StopReason): Step {
  return { kind: "stop", reason, state: at(state, "stopping") };
}

/** What may change from one state to the next besides the label; an absent key keeps its value. */
type Changes = Partial<Pick<TurnState, "turn" | "budgetUsed" | "toolPhase" | "view" | "toolsAborted">>;

/**
 * The state at `label`, with `changes`. Spelled out, not spread: every state has one shape, and spreading
 * them cost more than the rest of a turn's steps together.
 */
function at(state: TurnState, label: Label, changes?: Changes): TurnState {
  return {
    at: label,
    turn: changes?.turn ?? state.turn,
    firstTurn: state.firstTurn,
    budgetUsed: changes?.budgetUsed ?? state.budgetUsed,
    maxTurns: state.maxTurns,
    hasEngine: state.hasEngine,
    resumed: state.resumed,
    toolPhase: changes && "toolPhase" in changes ? changes.toolPhase : state.toolPhase,
    view: changes && "view" in changes ? changes.view : state.view,
    toolsAborted: changes?.toolsAborted ?? state.toolsAborted,
  };
}
