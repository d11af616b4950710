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
  groupAccepted,
  groupLabel,
  groupStatus,
  renderDelegation,
  subagentStatus,
  taskForkId,
  unknownSubagent,
  type DelegateInput,
  type DelegateTask,
  type SubagentOutcome,
} from "../kernel/builtin-tools/delegate-tool.js";
import type { StopReason } from "../kernel/events.js";
import { ZERO_USAGE } from "../kernel/model.js";
import type { Usage } from "../kernel/model.js";
import type { AbortSignalLike } from "../kernel/ports.js";
import type { Tool, ToolContext } from "../kernel/tools.js";
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
    async execute({ tasks, run_in_background }, ctx) {
      // One level, as the seed: a subagent's session never starts subagents of its own.
      if (session.input.task) return { content: "Error: a subagent cannot delegate", isError: true };
      for (const task of tasks) {
        const problem = unknownSubagent(task, subagents);
        if (problem) return { content: `Error: ${problem}`, isError: true };
      }
      const callId = ctx.call?.id ?? "call";
      const runAll = (sink: ChildSink, placement: ChildPlacement) =>
        Promise.all(
          tasks.map((task, index) => runChildTask(session, task, taskForkId(callId, index), sink, placement)),
        );
      if (run_in_background && ctx.background) {
        const detached = plan.backgroundKind === "detached";
        const { id } = ctx.background.spawn({
          label: groupLabel(tasks),
          kind: detached ? "detached" : "joinable",
          run: async (signal, emit) => {
            // A detached group outlives the run: its usage counts toward the session, not the ended run.
            const addUsage = detached ? (usage: Usage) => session.addBackgroundUsage(usage) : ctx.addUsage;
            const outcomes = await runAll({ emit, ...(addUsage ? { addUsage } : {}) }, { signal, detached });
            return { content: renderDelegation(outcomes), status: groupStatus(outcomes) };
          },
        });
        return groupAccepted(id, tasks);
      }
      return renderDelegation(await runAll(ctx, {}));
    },
  };
}

/** Where a child's events and usage go: the tool's context, or a background task's. */
interface ChildSink {
  emit: ToolContext["emit"];
  addUsage?: (usage: Usage) => void;
}

/** Which scope a child runs in: the run's (default), or the session's for a detached group; and what cancels it. */
interface ChildPlacement {
  signal?: AbortSignalLike;
  detached?: boolean;
}

async function runChildTask(
  session: SessionState,
  task: DelegateTask,
  forkId: string,
  ctx: ChildSink,
  placement: ChildPlacement,
): Promise<SubagentOutcome> {
  const agent = task.subagent_type;
  const sessionId = `${session.sessionId}/${forkId}`;
  const input: SessionInput = {
    sessionId,
    agent,
    task: { input: task.prompt, parentSessionId: session.sessionId, forkId },
    ...(session.input.searchAttributes === false ? { searchAttributes: false } : {}),
  };
  ctx.emit({ type: "subagent", phase: "start", forkId, sessionId, agent });
  session.subagents.set(sessionId, { sessionId, agent, forkId });
  session.refreshVisibility();
  let outcome: SubagentOutcome;
  // A detached group's children live in a scope of the session's, so the run's end does not cancel them; a
  // background task's cancel (its signal) cancels its children.
  const scope = new CancellationScope({
    cancellable: true,
    ...(placement.detached ? { parent: session.rootScope } : {}),
  });
  const cancel = () => scope.cancel();
  placement.signal?.addEventListener("abort", cancel, { once: true });
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
    outcome = { task, sessionId, status: subagentStatus({ stopReason, text }), text, usage: result.usage };
  } catch (error) {
    const cancelled =
      isCancellation(error) || (error instanceof ChildWorkflowFailure && isCancellation(error.cause));
    const text = cancelled ? "cancelled" : `Error: ${error instanceof Error ? error.message : String(error)}`;
    outcome = { task, sessionId, status: cancelled ? "cancelled" : "failed", text, usage: ZERO_USAGE };
  } finally {
    placement.signal?.removeEventListener("abort", cancel);
    session.subagents.delete(sessionId);
    session.refreshVisibility();
  }
  ctx.addUsage?.(outcome.usage);
  ctx.emit({
    type: "subagent",
    phase: "end",
    forkId,
    sessionId,
    agent,
    status: outcome.status,
    usage: outcome.usage,
  });
  return outcome;
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
