import type { DurableToolPlan } from "../../contract/agent-plan.js";
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
} from "../../kernel/builtin-tools/delegate-tool.js";
import type { Tool } from "../../kernel/vocabulary/tools.js";
import { runChildSession } from "./child-session.js";
import type { SessionState } from "../session/session-state.js";

/**
 * The delegation tool in a durable run: each task is a child session of the subagent's agent
 * (`<parent session>/<forkId>`) that runs it and closes. Cancelling the parent's run cancels the children and waits for
 * them (closing the parent asks them to cancel: `REQUEST_CANCEL`). Usage rolls up into the parent's run.
 */
export function durableDelegateTool(session: SessionState, plan: DurableToolPlan): Tool<DelegateInput> {
  const subagents = plan.subagents ?? [];
  return {
    name: plan.name,
    builtin: DELEGATE_BUILTIN,
    description: plan.description || delegateDescription(subagents),
    schema: delegateSchema(),
    parameters: plan.parameters,
    async execute(input, ctx) {
      // One level, as the seed: a subagent's session never starts subagents of its own.
      if (session.input.task) return { content: "Error: a subagent cannot delegate", isError: true };
      return executeDelegation(input, ctx, {
        subagents,
        ...(plan.backgroundKind ? { backgroundKind: plan.backgroundKind } : {}),
        runTask: (task, _sessionId, forkId, sink) => runChildTask(session, task, forkId, sink),
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
  forkId: string,
  sink: DelegationSink,
): Promise<Pick<SubagentOutcome, "status" | "text" | "usage">> {
  const agent = task.subagent_type;
  const end = await runChildSession(
    session,
    {
      agent,
      task: { input: task.prompt, parentSessionId: session.sessionId, forkId },
      summary: `subagent ${agent}: ${task.display_name}`,
    },
    sink,
  );
  return { status: subagentStatus(end), text: end.text, usage: end.usage };
}

/** Whether a plan's tool is the delegation tool. */
export function isDelegateTool(tool: DurableToolPlan): boolean {
  return tool.builtin === DELEGATE_BUILTIN;
}
