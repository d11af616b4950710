import type { Context } from "@temporalio/activity";
import { WorkflowUpdateFailedError } from "@temporalio/client";
import type { ExecuteToolInput } from "../contract/activity-types.js";
import { taskForkId } from "../kernel/builtin-tools/delegate-tool.js";
import type { ToolContext } from "../kernel/vocabulary/tools.js";
import { startForkUpdate } from "../contract/messages.js";
import { boundaryWhenStuck, updateWithRetry } from "../runtime/update-with-retry.js";

/**
 * `ctx.fork` in the `executeTool` activity: asks the session (`startFork`) to run the fork as a child session and waits
 * for its result. Fork ids default to `task-<call id>-<n>`; the update id is the activity id plus the fork id, so a
 * retried attempt rejoins the fork the first one started.
 */
export function toolFork(input: ExecuteToolInput, context: Context): NonNullable<ToolContext["fork"]> {
  let forks = 0;
  const { workflowExecution, activityId } = context.info;
  return async (prompt, options = {}) => {
    const forkId = options.forkId ?? taskForkId(input.call.id, forks++);
    if (!workflowExecution) throw new Error("ctx.fork: this tool does not run for a session workflow");
    const handle = context.client.workflow.getHandle(workflowExecution.workflowId, workflowExecution.runId);
    const request = {
      callId: input.call.id,
      input: prompt,
      forkId,
      ...(options.tools ? { tools: options.tools.map((tool) => tool.name) } : {}),
    };
    const send = (updateId: string) => handle.executeUpdate(startForkUpdate, { args: [request], updateId });
    const afterBusy = boundaryWhenStuck(handle);
    return await updateWithRetry(send, afterBusy, `${activityId}/${forkId}`).catch(refusalReason);
  };
}

/** A refused fork rejects with the workflow's reason, not the client's generic "Workflow Update failed". */
function refusalReason(error: unknown): never {
  if (error instanceof WorkflowUpdateFailedError && error.cause instanceof Error)
    throw new Error(`ctx.fork: ${error.cause.message}`);
  throw error;
}
