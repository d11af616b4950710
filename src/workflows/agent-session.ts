import { allHandlersFinished, condition, workflowInfo } from "@temporalio/workflow";
import type { AgentPlan } from "../common/agent-plan.js";
import { executeRun } from "./run-executor.js";
import type { SessionInput, SessionOutcome } from "./session-input.js";
import { SessionState } from "./session-state.js";

/**
 * One workflow per session. Runs arrive by update (`startRun`, usually with update-with-start), are queued and
 * executed one at a time; steers, follow-ups and cancels arrive by signal or update. At run boundaries the session
 * continues as new when Temporal suggests it or a plan threshold is reached, carrying the folded conversation.
 */
export async function agentSession(input: SessionInput): Promise<SessionOutcome> {
  const session = new SessionState(input);
  session.refreshVisibility();
  for (;;) {
    await condition(() => session.queue.length > 0 || session.closed);
    const run = session.queue.shift();
    if (!run) break;
    const plan = await executeRun(session, run);
    session.trimStream(run.offset);
    if (plan && shouldContinueAsNew(session, plan)) await continueAsNew(session);
  }
  await condition(allHandlersFinished);
  return {
    sessionId: session.sessionId,
    runsCompleted: session.runsCompleted,
    turns: session.turns,
    usage: session.usage,
  };
}

function shouldContinueAsNew(session: SessionState, plan: AgentPlan): boolean {
  const info = workflowInfo();
  return (
    info.continueAsNewSuggested ||
    info.historyLength > plan.continueAsNew.maxHistoryEvents ||
    session.runsThisExecution >= plan.continueAsNew.maxRunsPerExecution
  );
}

async function continueAsNew(session: SessionState): Promise<never> {
  // Finished runs' entries stay behind: the new execution's input must stay far below the 2 MB payload limit.
  // A reader that lags behind gets the run's outcome from the runSummary query instead.
  session.trimStreamForContinueAsNew();
  return session.stream.continueAsNew<typeof agentSession>((streamState) => [
    { ...session.input, carried: session.carry(streamState) },
  ]);
}
