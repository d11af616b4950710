import type { WorkflowHandle } from "@temporalio/client";

/** How many of the newest events are read to find the last workflow task's outcome. */
const EVENTS_READ = 50;

/**
 * Why a workflow's task keeps failing, from its newest history events: the failure's message when the last recorded
 * task failed (nondeterminism, a workflow bug); undefined when it completed or timed out (a dead worker's; the next
 * attempt clears it). Retried attempts are not recorded, so the first one's outcome decides.
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
