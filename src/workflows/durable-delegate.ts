import {
  CancellationScope,
  ChildWorkflowFailure,
  ParentClosePolicy,
  ChildWorkflowCancellationType,
  isCancellation,
  startChild,
  workflowInfo,
} from "@temporalio/workflow";
import type { DurableToolPlan } from "../common/agent-plan.js";
import {
  DELEGATE_BUILTIN,
  delegateDescription,
  delegateSchema,
  executeDelegation,
  subagentStatus,
  type DelegateInput,
  type DelegateTask,
  type DelegationSink,
  type SubagentOutcome,
} from "../kernel/builtin-tools/delegate-tool.js";
import type { StopReason } from "../kernel/events.js";
import { ZERO_USAGE } from "../kernel/model.js";
import type { Tool } from "../kernel/tools.js";
import type { SessionInput, SessionOutcome } from "./session-input.js";
import type { SessionState } from "./session-state.js";

/**
 * The delegation tool in a durable run: every task is a child workflow, a session of the subagent's own on its
 * agent's task queue (`<parent session>/<forkId>`), which runs the task and closes. Children show under the parent
 * in the Temporal UI; cancelling the parent's run cancels them and waits for them to stop (and closing or
 * terminating the parent session asks them to cancel: `REQUEST_CANCEL`). Usage rolls up into the parent's run.
 */
export function durableDelegateTool(session: SessionState, plan: DurableToolPlan): Tool<DelegateInput> {
  const subagents = plan.subagents ?? [];
  return {
    name: plan.name,
    builtin: DELEGATE_BUILTIN,
    description: plan.description || delegateDescription(subagents),
    schema: delegateSchema,
    parameters: plan.parameters,
    async execute(input, ctx) {
      // One level, as the seed: a subagent's session never starts subagents of its own.
      if (session.input.task) return { content: "Error: a subagent cannot delegate", isError: true };
      return executeDelegation(input, ctx, {
        subagents,
        ...(plan.backgroundKind ? { backgroundKind: plan.backgroundKind } : {}),
        runTask: (task, sessionId, forkId, sink) => runChildTask(session, task, sessionId, forkId, sink),
        // A detached group outlives the run: its usage counts toward the session, not the ended run.
        detachedUsage: (usage) => session.addBackgroundUsage(usage),
      });
    },
  };
}

/** Runs one task as a child session and waits for its summary. */
async function runChildTask(
  session: SessionState,
  task: DelegateTask,
  sessionId: string,
  forkId: string,
  sink: DelegationSink,
): Promise<Pick<SubagentOutcome, "status" | "text" | "usage">> {
  const agent = task.subagent_type;
  const input: SessionInput = {
    sessionId,
    agent,
    task: { input: task.prompt, parentSessionId: session.sessionId, forkId },
    ...(session.input.searchAttributes === false ? { searchAttributes: false } : {}),
  };
  session.subagents.set(sessionId, { sessionId, agent, forkId });
  session.refreshVisibility();
  // A detached group's children live in a scope of the session's, so the run's end does not cancel them; the
  // sink's signal (the run's, or a background task's) cancels them.
  const scope = new CancellationScope({
    cancellable: true,
    ...(sink.detached ? { parent: session.rootScope } : {}),
  });
  const cancel = () => scope.cancel();
  sink.signal.addEventListener("abort", cancel, { once: true });
  try {
    const result = await scope.run(async () => {
      const child = await startChild<(input: SessionInput) => Promise<SessionOutcome>>("agentSession", {
        workflowId: sessionId,
        taskQueue: agentQueue(session.agent, agent),
        args: [input],
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
        staticSummary: `subagent ${agent}: ${task.display_name}`,
      });
      return child.result();
    });
    const stopReason = (result.task?.stopReason ?? "error") as StopReason;
    const text = result.task?.text ?? "";
    return { status: subagentStatus({ stopReason, text }), text, usage: result.usage };
  } catch (error) {
    const cancelled =
      isCancellation(error) || (error instanceof ChildWorkflowFailure && isCancellation(error.cause));
    const text = cancelled ? "cancelled" : `Error: ${error instanceof Error ? error.message : String(error)}`;
    return { status: cancelled ? "cancelled" : "failed", text, usage: ZERO_USAGE };
  } finally {
    sink.signal.removeEventListener("abort", cancel);
    session.subagents.delete(sessionId);
    session.refreshVisibility();
  }
}

/** The task queue of another agent's sessions: this session's queue is `<base>.<its agent>`. */
function agentQueue(ownAgent: string, agent: string): string {
  const own = workflowInfo().taskQueue;
  const suffix = `.${ownAgent}`;
  const base = own.endsWith(suffix) ? own.slice(0, -suffix.length) : own;
  return `${base}.${agent}`;
}

/** Whether a plan's tool is the delegation tool. */
export function isDelegateTool(tool: DurableToolPlan): boolean {
  return tool.builtin === DELEGATE_BUILTIN;
}
