import {
  CancellationScope,
  ChildWorkflowCancellationType,
  ChildWorkflowFailure,
  ParentClosePolicy,
  isCancellation,
  startChild,
  workflowInfo,
} from "@temporalio/workflow";
import type { StopReason } from "../../kernel/vocabulary/events.js";
import { ZERO_USAGE, type Usage } from "../../kernel/vocabulary/model.js";
import type { AbortSignalLike } from "../../kernel/vocabulary/ports.js";
import type { ActiveSubagent } from "../../contract/session-status.js";
import type { SessionInput, SessionOutcome, SubagentTask } from "../../contract/session-input.js";

/** What running a child reaches of its parent session: its names, its subagent list, its root scope. */
export interface ChildHost {
  readonly sessionId: string;
  readonly agent: string;
  readonly input: Pick<SessionInput, "searchAttributes">;
  readonly subagents: Map<string, ActiveSubagent>;
  readonly rootScope: CancellationScope;
  refreshVisibility(): void;
}

/** How a child session's one run ended, as its parent sees it. Never a throw: a failure is `error` with a text. */
export interface ChildEnd {
  stopReason: StopReason;
  text: string;
  usage: Usage;
}

/** A child session to run: its agent, its task, what else it starts with, and its line in the Temporal UI. */
export interface ChildSpec {
  agent: string;
  task: SubagentTask;
  /** The conversation it starts from (a fork's). */
  seed?: SessionInput["seed"];
  summary: string;
}

/** What stops a child: the signal of the run (or background task) that started it, and whether it outlives the run. */
export interface ChildControl {
  signal: AbortSignalLike;
  detached: boolean;
}

/**
 * Runs a child session (a subagent's task or a tool's fork) as child workflow `<parent session>/<forkId>` on its
 * agent's queue and waits for its one run to end. Cancelling the signal cancels it and waits for it to stop; closing
 * or terminating the parent asks it to cancel (`REQUEST_CANCEL`).
 */
export async function runChildSession(
  session: ChildHost,
  spec: ChildSpec,
  control: ChildControl,
): Promise<ChildEnd> {
  const { agent, task } = spec;
  const sessionId = `${session.sessionId}/${task.forkId}`;
  session.subagents.set(sessionId, { sessionId, agent, forkId: task.forkId });
  session.refreshVisibility();
  // A detached child lives in a scope of the session's, so the run's end does not cancel it; the signal does.
  const scope = new CancellationScope({
    cancellable: true,
    ...(control.detached ? { parent: session.rootScope } : {}),
  });
  const cancel = () => scope.cancel();
  control.signal.addEventListener("abort", cancel, { once: true });
  try {
    const outcome = await scope.run(async () => {
      const child = await startChild<(input: SessionInput) => Promise<SessionOutcome>>("agentSession", {
        workflowId: sessionId,
        taskQueue: agentQueue(session.agent, agent),
        args: [childInput(session, sessionId, spec)],
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
        staticSummary: spec.summary,
      });
      return child.result();
    });
    const stopReason = (outcome.task?.stopReason ?? "error") as StopReason;
    return { stopReason, text: outcome.task?.text ?? "", usage: outcome.usage };
  } catch (error) {
    const cancelled =
      isCancellation(error) || (error instanceof ChildWorkflowFailure && isCancellation(error.cause));
    if (cancelled) return { stopReason: "aborted", text: "cancelled", usage: ZERO_USAGE };
    return { stopReason: "error", text: `Error: ${errorText(error)}`, usage: ZERO_USAGE };
  } finally {
    control.signal.removeEventListener("abort", cancel);
    session.subagents.delete(sessionId);
    session.refreshVisibility();
  }
}

function childInput(session: ChildHost, sessionId: string, spec: ChildSpec): SessionInput {
  return {
    sessionId,
    agent: spec.agent,
    task: spec.task,
    ...(spec.seed ? { seed: spec.seed } : {}),
    ...(session.input.searchAttributes === false ? { searchAttributes: false } : {}),
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The task queue of another agent's sessions: this session's queue is `<base>.<its agent>`. */
function agentQueue(ownAgent: string, agent: string): string {
  const own = workflowInfo().taskQueue;
  const suffix = `.${ownAgent}`;
  const base = own.endsWith(suffix) ? own.slice(0, -suffix.length) : own;
  return `${base}.${agent}`;
}
