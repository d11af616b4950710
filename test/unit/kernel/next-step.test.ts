import { describe, expect, it } from "vitest";
import { initialTurnState, nextStep } from "../../../src/kernel/loop/next-step.js";
import type { Label, Outcome, Step } from "../../../src/kernel/loop/turn-step.js";
import { answer, call, check, TABLE } from "./next-step-table.js";

/** The step's fields and its state's, flattened (`view_` is the state's view where the step has its own). */
function flatten(step: Step): Record<string, unknown> {
  if (!("state" in step)) return { ...step };
  const { state: next, ...fields } = step;
  return { ...next, view_: next.view, ...fields };
}

describe("nextStep: the turn as a state machine", () => {
  it.each(TABLE)("%s", (_name, from, outcome, expected) => {
    expect(flatten(nextStep(from, outcome))).toMatchObject(expected);
  });

  it("covers every label and every kind of step (the records fail to compile when one is added)", () => {
    const labels: Record<Label, true> = {
      open: true,
      opened: true,
      before_agent: true,
      ready: true,
      gate: true,
      over_budget: true,
      turn_started: true,
      injected: true,
      inject_sent: true,
      before_model: true,
      model_ready: true,
      prepared: true,
      context_sent: true,
      model: true,
      interrupted: true,
      model_failed: true,
      answered: true,
      follow_ups: true,
      steered: true,
      join: true,
      announced: true,
      tools: true,
      tools_closed: true,
      after_turn: true,
      turn_ended: true,
      suspending: true,
      failed: true,
      stopping: true,
      stopped: true,
    };
    const kinds: Record<Step["kind"], true> = {
      emit: true,
      hook: true,
      check_turn: true,
      start_turn: true,
      inject: true,
      prepare_context: true,
      call_model: true,
      run_tools: true,
      close_tools: true,
      take_follow_ups: true,
      join_background: true,
      suspend: true,
      stop: true,
      end: true,
      fail: true,
    };
    expect(new Set(TABLE.map(([, from]) => from.at))).toEqual(new Set(Object.keys(labels)));
    expect(new Set(TABLE.map(([, from, outcome]) => nextStep(from, outcome).kind))).toEqual(
      new Set(Object.keys(kinds)),
    );
  });

  it("walks a run: one tool turn, then an answer, in the loop's order", () => {
    const outcomes: Partial<Record<Step["kind"], Outcome[]>> = {
      check_turn: [check({}), check({})],
      inject: [[], []],
      call_model: [answer([call]), answer([])],
      run_tools: [{ results: [], aborted: false }],
      take_follow_ups: [[]],
      join_background: [false],
      stop: [[]],
    };
    const kinds: string[] = [];
    let step = nextStep(initialTurnState(undefined, 5, false), undefined);
    while (step.kind !== "end" && step.kind !== "fail") {
      kinds.push(step.kind === "hook" ? step.hook : step.kind);
      step = nextStep(step.state, outcomes[step.kind]?.shift());
    }
    expect(kinds).toEqual([
      ...["emit", "beforeAgent", "emit", "check_turn", "start_turn", "inject", "beforeModel", "emit"],
      ...["call_model", "emit", "run_tools", "close_tools", "afterTurn", "emit", "check_turn"],
      ...["start_turn", "inject", "beforeModel", "emit", "call_model", "emit", "take_follow_ups"],
      ...["join_background", "stop", "emit"],
    ]);
    expect(step).toEqual({ kind: "end", moved: false });
  });
});
