import type { WorkflowHandle } from "@temporalio/client";

/** How many of the newest events are read to find the last workflow task's outcome. */
const EVENTS_READ = 50;

/**
 * Why a workflow's task keeps failing, read from the newest events of its history: the failure's message when the
 * last recorded workflow task failed (a nondeterminism error, a bug in workflow code), undefined when it timed out
 * or completed. A task that timed out was held by a worker that died; its next attempt clears it, so the session
 * is only slow to answer, not broken. Retried attempts are not recorded, so the first one's outcome decides.
 */
export async function workflowTaskFailure(handle: WorkflowHandle): Promise<string | undefined> {
  const { workflowService, options } = handle.client;
  const page = await workflowService.getWorkflowExecutionHistoryReverse({
    namespace: options.namespace,
    execution: { workflowId: handle.workflowId },
    maximumPageSize: EVENTS_READ,
  });
  for (const event of page.history?.events ?? []) {
    if (event.workflowTaskCompletedEventAttributes || event.workflowTaskTimedOutEventAttributes)
      return undefined;
    const failed = event.workflowTaskFailedEventAttributes;
    if (failed) return failed.failure?.message ?? "the workflow task failed";
  }
  return undefined;
}
