import type { OpenToolPhase, RunSnapshot } from "../vocabulary/run-snapshot.js";
import type { RunState } from "./run-state.js";
import type { ToolCall, ToolResult } from "../vocabulary/tools.js";

/** The run paused at the end of turn `turn` (or, with `toolPhase`, in its tool phase). */
export function snapshotOf(run: RunState, turn: number, budgetUsed: number): RunSnapshot {
  const contextState = run.engine?.state?.();
  return {
    messages: run.ctx.messages,
    turn,
    budgetUsed,
    usage: run.usage,
    ...(contextState ? { contextState } : {}),
  };
}

/** The tool phase of turn `turn` as its driver sees it: which calls are open, and the run paused there. */
export function openToolPhase(
  run: RunState,
  turn: number,
  budgetUsed: number,
  calls: ToolCall[],
  finished: ReadonlyMap<string, ToolResult>,
): OpenToolPhase {
  return {
    open: () => calls.filter((call) => !finished.has(call.id)).map((call) => call.id),
    snapshot: () => ({
      ...snapshotOf(run, turn, budgetUsed),
      messages: [...run.ctx.messages],
      toolPhase: { calls, results: [...finished.values()] },
    }),
  };
}
