import { allHandlersFinished, condition, makeContinueAsNewFunc } from "@temporalio/workflow";
import { historyIsLong } from "../run/history-budget.js";
import { continueAsNewOptions, targetVersionChanged } from "./target-version.js";
import { executeRun } from "../run/run-executor.js";
import type { SessionInput, SessionOutcome } from "../../contract/session-input.js";
import type { SuspendedRun } from "../../contract/carried-state.js";
import { SessionState } from "./session-state.js";
import { registerSessionHandlers } from "./session-handlers.js";

/**
 * One workflow per session: runs arrive by `startRun` update (usually with start) and run one at a time; steers,
 * follow-ups and cancels come by signal or update. It continues as new (Temporal suggests it, a plan threshold, a new
 * target build) between runs, at a turn boundary, or while a run waits for a person (run-executor.ts, waiting-move.ts).
 */
export async function agentSession(input: SessionInput): Promise<SessionOutcome> {
  const session = new SessionState(input);
  // Right after the stream's own handlers (made with the state): the order buffered messages arrive in is kept.
  registerSessionHandlers(session);
  session.refreshVisibility();
  let resumed = input.carried?.activeRun;
  // Detached subagents keep their parent execution open: it moves once they are done.
  const moves = () => !session.lifecycle.closed && session.subagents.size === 0 && targetVersionChanged();
  for (;;) {
    // Only what the history records wakes an idle session: a run, a close, the `wake` signal. A task with nothing
    // recorded (an update its validator refused) replays as no task at all, so it must decide no command.
    if (!resumed)
      await condition(() => session.queue.length > 0 || session.lifecycle.closed || session.woken);
    session.woken = false;
    if (!resumed && moves()) await continueAsNewNow(session);
    if (!resumed && session.queue.length === 0 && !session.lifecycle.closed) continue;
    const run = resumed?.run ?? session.queue.shift();
    if (!run) break;
    const outcome = await executeRun(session, run, resumed);
    resumed = undefined;
    // A subagent's session ends with its task.
    if (input.task && !outcome.suspended) session.lifecycle.closed = true;
    if (outcome.suspended) await continueAsNewNow(session, outcome.suspended);
    session.stream.retainRun(run.offset);
    const busy = session.subagents.size > 0; // detached subagents: their parent execution must stay open
    if (!busy && ((outcome.plan && historyIsLong(outcome.plan.continueAsNew, session.record)) || moves()))
      await continueAsNewNow(session);
  }
  await condition(allHandlersFinished);
  return {
    sessionId: session.sessionId,
    runsCompleted: session.record.runsCompleted,
    turns: session.record.turns,
    usage: session.record.usage,
    ...(input.task ? taskOutcome(session) : {}),
  };
}

function taskOutcome(session: SessionState): Pick<SessionOutcome, "task"> {
  const summary = session.record.last();
  return summary ? { task: summary } : {};
}

async function continueAsNewNow(session: SessionState, suspended?: SuspendedRun): Promise<never> {
  // Handlers in flight (a startRun, a decision) finish here first; they only queue or flag.
  await condition(allHandlersFinished);
  // The conversation goes on in `carried`; a fork's seed is only the first execution's start.
  const { seed: _seed, ...input } = session.input;
  const next = makeContinueAsNewFunc<typeof agentSession>(continueAsNewOptions());
  return next({ ...input, carried: session.carry(suspended) });
}
