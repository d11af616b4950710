import { budgetOverrun } from "../vocabulary/budget.js";
import { send } from "../coroutine/event-outlet.js";
import type { MaybeAsync } from "../coroutine/maybe-async.js";
import { runHooks } from "../middleware/middleware.js";
import { modelPhase } from "../phases/model-phase.js";
import type { RunState } from "./run-state.js";
import type { SuspendPort } from "../vocabulary/run-snapshot.js";
import { runToolCalls } from "../phases/tool-phase.js";
import type { ToolResult } from "../vocabulary/tools.js";
import { finish } from "./finish-run.js";
import { joinBackground, resumeWithFollowUps } from "./follow-ups.js";
import { openToolPhase, snapshotOf } from "./run-snapshots.js";
import { injectAtTurnStart, prepareContext } from "./turn-start.js";
import type { Outcome, PerformedStep, Step, TurnCheck } from "./turn-step.js";

/**
 * Does what `step` says to `run` and gives back its outcome: at once when the work was synchronous, a promise only
 * when something real is waited for (an activity, a hook's promise, a consumer that has not asked for more).
 */
export function performStep(
  run: RunState,
  step: PerformedStep,
  suspend: SuspendPort | undefined,
): MaybeAsync<Outcome> {
  switch (step.kind) {
    case "emit":
      return step.drain ? send(run.out, ...run.sink.drain(), ...step.events) : send(run.out, ...step.events);
    case "hook":
      return runHooks(run.config.use, step.hook, run.ctx);
    case "check_turn":
      return checkTurn(run, step.askSuspend, suspend);
    case "start_turn":
      run.ctx.turn = step.turn;
      return send(run.out, { type: "turn_start", turn: step.turn });
    case "inject":
      return injectAtTurnStart(run);
    case "prepare_context":
      return prepareContext(run);
    case "call_model":
      return modelPhase(run, step.turn, step.view);
    case "run_tools":
      return runTools(run, step, suspend);
    case "close_tools":
      suspend?.toolPhase?.(undefined);
      return run.out.pause();
    case "take_follow_ups":
      return resumeWithFollowUps(run);
    case "join_background":
      return joinBackground(run);
    case "suspend":
      return suspend?.suspend(snapshotOf(run, step.turn, step.budgetUsed));
    case "stop":
      return finish(run, step.reason);
    default:
      return unreachable(step);
  }
}

/** The facts before a turn; the driver is asked about a move only when the run may move and is not aborted. */
function checkTurn(run: RunState, askSuspend: boolean, suspend: SuspendPort | undefined): TurnCheck {
  const aborted = run.signal.aborted;
  const suspendRequested = !aborted && askSuspend && suspend?.requested() === true;
  const budget = run.config.budget;
  return { aborted, suspendRequested, overrun: budget ? budgetOverrun(budget, run.usage) : undefined };
}

/** The calls' events reach `run.out` live, as they come; the driver sees where the phase stands meanwhile. */
function runTools(
  run: RunState,
  step: Extract<Step, { kind: "run_tools" }>,
  suspend: SuspendPort | undefined,
): MaybeAsync<Outcome> {
  const { turn, calls, state } = step;
  const finished = new Map<string, ToolResult>();
  for (const result of step.results) finished.set(result.id, result);
  run.ctx.turn = turn;
  suspend?.toolPhase?.(openToolPhase(run, turn, state.budgetUsed, calls, finished));
  return runToolCalls(run, turn, calls, finished);
}

/** A step kind the switch above does not handle fails to compile here. */
function unreachable(step: never): never {
  throw new Error(`internal error: unknown step ${(step as { kind: string }).kind}`);
}
