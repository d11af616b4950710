import { AgentError } from "../../../src/kernel/vocabulary/errors.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import { initialTurnState } from "../../../src/kernel/loop/next-step.js";
import { Threw, type Label, type Outcome, type TurnState } from "../../../src/kernel/loop/turn-step.js";
import type { ModelPhaseOutcome } from "../../../src/kernel/phases/model-phase.js";
import type { PreparedView } from "../../../src/kernel/phases/model-request.js";
import type { ToolCall } from "../../../src/kernel/vocabulary/tools.js";

export const call: ToolCall = { id: "c1", name: "echo", input: {} };
export const answer = (calls: ToolCall[], stopReason?: "max_tokens"): ModelPhaseOutcome => ({
  kind: "decoded",
  decoded: { text: "", calls },
  message: { role: "assistant", content: [] },
  ...(stopReason ? { stopReason } : {}),
});
const steer: AgentEvent = { type: "steer", messages: [] };
const overrun = { limit: "run_tokens" as const, used: 12, max: 10 };
const view: PreparedView = { from: [], messages: [], edits: {} };
const failure = new AgentError("hook failed");

/** A state in the middle of turn 3 of a run that started at turn 0, with 3 of 5 turns used. */
function state(at: Label, changes: Partial<TurnState> = {}): TurnState {
  return Object.freeze({ ...initialTurnState(undefined, 5, false), turn: 3, budgetUsed: 3, at, ...changes });
}

export const check = (
  facts: Partial<{ aborted: boolean; suspendRequested: boolean }> & { overrun?: typeof overrun },
) => ({
  aborted: false,
  suspendRequested: false,
  overrun: undefined,
  ...facts,
});

/** Each row: where the loop stands, what its last step gave back, and (a part of) the step it takes next. */
export const TABLE: [name: string, from: TurnState, outcome: Outcome, next: Record<string, unknown>][] = [
  [
    "an open run delivers what opening queued",
    state("open"),
    undefined,
    { kind: "emit", drain: true, events: [], at: "opened" },
  ],
  [
    "then runs beforeAgent",
    state("opened"),
    undefined,
    { kind: "hook", hook: "beforeAgent", at: "before_agent" },
  ],
  [
    "a resumed run skips beforeAgent",
    state("opened", { resumed: true }),
    undefined,
    { kind: "emit", drain: true, at: "ready" },
  ],
  [
    "beforeAgent's events go out",
    state("before_agent"),
    undefined,
    { kind: "emit", drain: true, events: [], at: "ready" },
  ],
  [
    "the first turn of a process may not move",
    state("ready", { firstTurn: 3 }),
    undefined,
    { kind: "check_turn", askSuspend: false, at: "gate" },
  ],
  [
    "a run resumed in a tool phase goes on there",
    state("ready", { toolPhase: { calls: [call], results: [] } }),
    undefined,
    { kind: "run_tools", turn: 3, calls: [call], results: [], at: "tools", toolPhase: undefined },
  ],
  [
    "aborted before a turn",
    state("gate"),
    check({ aborted: true, suspendRequested: true }),
    { kind: "stop", reason: "aborted", at: "stopping" },
  ],
  [
    "the driver moves the run",
    state("gate", { budgetUsed: 5 }),
    check({ suspendRequested: true }),
    { kind: "suspend", turn: 3, budgetUsed: 5, at: "suspending" },
  ],
  [
    "out of turns",
    state("gate", { budgetUsed: 5 }),
    check({ overrun }),
    { kind: "stop", reason: "max_turns" },
  ],
  [
    "over budget",
    state("gate"),
    check({ overrun }),
    { kind: "emit", drain: false, events: [{ type: "budget_exceeded", ...overrun }], at: "over_budget" },
  ],
  [
    "a turn starts",
    state("gate"),
    check({}),
    { kind: "start_turn", turn: 4, at: "turn_started", budgetUsed: 4 },
  ],
  [
    "budget_exceeded, then the run stops",
    state("over_budget"),
    undefined,
    { kind: "stop", reason: "budget" },
  ],
  ["steers go in at turn start", state("turn_started"), undefined, { kind: "inject", at: "injected" }],
  [
    "nothing injected: beforeModel",
    state("injected"),
    [],
    { kind: "hook", hook: "beforeModel", at: "before_model" },
  ],
  [
    "injected messages are announced",
    state("injected"),
    [steer],
    { kind: "emit", drain: false, events: [steer], at: "inject_sent" },
  ],
  [
    "then beforeModel",
    state("inject_sent"),
    undefined,
    { kind: "hook", hook: "beforeModel", at: "before_model" },
  ],
  [
    "beforeModel's events go out",
    state("before_model"),
    undefined,
    { kind: "emit", drain: true, at: "model_ready" },
  ],
  [
    "the ContextEngine prepares the view",
    state("model_ready", { hasEngine: true }),
    undefined,
    { kind: "prepare_context", at: "prepared" },
  ],
  [
    "without one the model is called at once",
    state("model_ready"),
    undefined,
    { kind: "call_model", turn: 3, view: undefined, at: "model" },
  ],
  [
    "the engine's report goes out",
    state("prepared", { hasEngine: true }),
    { view, events: [] },
    { kind: "emit", events: [], at: "context_sent", view },
  ],
  [
    "then the model sees its view",
    state("context_sent", { view }),
    undefined,
    { kind: "call_model", view, at: "model", view_: undefined },
  ],
  ["an aborted model call stops", state("model"), { kind: "aborted" }, { kind: "stop", reason: "aborted" }],
  [
    "an interrupted call ends the turn",
    state("model"),
    { kind: "interrupted" },
    { kind: "emit", events: [{ type: "turn_end", turn: 3, stopReason: "interrupted" }], at: "interrupted" },
  ],
  [
    "a failed call reports a fatal error",
    state("model"),
    { kind: "error", error: failure },
    { kind: "emit", events: [{ type: "error", error: failure, fatal: true }], at: "model_failed" },
  ],
  [
    "an answer without calls ends the turn",
    state("model"),
    answer([]),
    { kind: "emit", events: [{ type: "turn_end", turn: 3, stopReason: "stop" }], at: "answered" },
  ],
  [
    "one cut off says so",
    state("model"),
    answer([], "max_tokens"),
    { kind: "emit", events: [{ type: "turn_end", turn: 3, stopReason: "max_tokens" }] },
  ],
  [
    "calls are announced",
    state("model"),
    answer([call]),
    { kind: "emit", drain: false, events: [{ type: "tool_use", call }], at: "announced" },
  ],
  [
    "an interrupted turn re-plans",
    state("interrupted"),
    undefined,
    { kind: "check_turn", askSuspend: true, at: "gate" },
  ],
  ["a failed model phase stops", state("model_failed"), undefined, { kind: "stop", reason: "error" }],
  [
    "an answer looks for follow-ups",
    state("answered"),
    undefined,
    { kind: "take_follow_ups", at: "follow_ups" },
  ],
  ["none: join background work", state("follow_ups"), [], { kind: "join_background", at: "join" }],
  [
    "follow-ups are announced",
    state("follow_ups"),
    [steer],
    { kind: "emit", events: [steer], at: "steered" },
  ],
  ["and resurrect the run", state("steered"), undefined, { kind: "check_turn", at: "gate" }],
  ["a join costs no turn", state("join"), true, { kind: "check_turn", at: "gate", budgetUsed: 2 }],
  ["nothing to join: the run stops", state("join"), false, { kind: "stop", reason: "stop" }],
  [
    "announced calls run",
    state("announced", { toolPhase: { calls: [call], results: [] } }),
    undefined,
    { kind: "run_tools", calls: [call], results: [], at: "tools", toolPhase: undefined },
  ],
  [
    "the tool phase closes",
    state("tools"),
    { results: [], aborted: false },
    { kind: "close_tools", at: "tools_closed", toolsAborted: false },
  ],
  [
    "a hook's abort is kept for the turn's end",
    state("tools"),
    { results: [], aborted: true },
    { kind: "close_tools", toolsAborted: true },
  ],
  ["then afterTurn", state("tools_closed"), undefined, { kind: "hook", hook: "afterTurn", at: "after_turn" }],
  [
    "its events, then the turn's end",
    state("after_turn"),
    undefined,
    {
      kind: "emit",
      drain: true,
      events: [{ type: "turn_end", turn: 3, stopReason: "tool_use" }],
      at: "turn_ended",
    },
  ],
  ["a tool turn goes on", state("turn_ended"), undefined, { kind: "check_turn", askSuspend: true }],
  [
    "unless a hook aborted it",
    state("turn_ended", { toolsAborted: true }),
    undefined,
    { kind: "stop", reason: "aborted" },
  ],
  ["a moved run ends here", state("suspending"), undefined, { kind: "end", moved: true }],
  ["a failure stops with an error", state("failed"), undefined, { kind: "stop", reason: "error" }],
  [
    "the last events go out",
    state("stopping"),
    [steer],
    { kind: "emit", drain: false, events: [steer], at: "stopped" },
  ],
  ["then the run ends", state("stopped"), undefined, { kind: "end", moved: false }],
  [
    "a throw in an aborted run stops it",
    state("model"),
    new Threw(failure, true, false),
    { kind: "stop", reason: "aborted" },
  ],
  [
    "a throw is the run's error",
    state("before_model"),
    new Threw(failure, false, false),
    { kind: "emit", drain: true, events: [{ type: "error", error: failure, fatal: true }], at: "failed" },
  ],
  [
    "a gone consumer unwinds the loop",
    state("tools"),
    new Threw(failure, true, true),
    { kind: "fail", error: failure },
  ],
  [
    "the opening delivery's failure is not the run's",
    state("opened"),
    new Threw(failure, false, false),
    { kind: "fail", error: failure },
  ],
  [
    "nor is the error event's",
    state("failed"),
    new Threw(failure, false, false),
    { kind: "fail", error: failure },
  ],
  ["nor the ending's", state("stopping"), new Threw(failure, false, false), { kind: "fail", error: failure }],
  [
    "nor the last events'",
    state("stopped"),
    new Threw(failure, false, false),
    { kind: "fail", error: failure },
  ],
];
