import { proxySinks, workflowInfo } from "@temporalio/workflow";
import { FORK_CAPTURE_REPLAY, type ForkCaptureSinks } from "../../wire/fork-capture.js";
import type { AgentEvent } from "../../kernel/vocabulary/events.js";
import type { AgentContext, Middleware } from "../../kernel/middleware/middleware.js";
import type { ActiveRun } from "../run/active-run.js";
import type { SessionState } from "../session/session-state.js";

const { liteAgentForkCapture } = proxySinks<ForkCaptureSinks>();

/**
 * Keeps the run's kernel context on the active run, so the end of a turn can read the conversation as the kernel
 * holds it then (middleware may have replaced the array): from the model call on, or for a turn resumed in its tool
 * phase after continue-as-new, from its end. It adds no command.
 */
export function turnTracker(active: ActiveRun): Middleware {
  const track = (ctx: AgentContext) => void (active.context = ctx);
  return { name: "turn-tracker", beforeModel: track, afterTurn: track };
}

/**
 * Reports the end of one of the session's own turns (numbered across its runs, as the status counts them) with the
 * conversation at that point, to the fork reader's replayer only: a sink call adds no command, and a worker's own
 * replays skip it (their task queue is never the fork reader's), so they pay nothing for it.
 */
export function captureTurnEnd(session: SessionState, active: ActiveRun, event: AgentEvent): void {
  if (event.type !== "turn_end" || event.forkId !== undefined || event.agentId !== undefined) return;
  const info = workflowInfo();
  if (!info.unsafe.isReplaying || !info.taskQueue.startsWith(FORK_CAPTURE_REPLAY)) return;
  // A copy: the sink runs after the activation, by when the kernel may have added the next turn's messages.
  const messages = [...(active.context?.messages ?? [])];
  liteAgentForkCapture.turnEnded(session.agent, session.record.turns + event.turn, messages);
}
