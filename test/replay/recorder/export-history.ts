import type { Client } from "@temporalio/client";
import type { History } from "../history-files.js";
import { eventsOf, lastEvent } from "../history-events.js";
import { waitFor } from "./wait-for.js";

const CLOSED = [
  "workflowExecutionCompletedEventAttributes",
  "workflowExecutionContinuedAsNewEventAttributes",
  "workflowExecutionFailedEventAttributes",
  "workflowExecutionTerminatedEventAttributes",
  "workflowExecutionCanceledEventAttributes",
  "workflowExecutionTimedOutEventAttributes",
] as const;

/**
 * A history is at rest when the workflow closed, or its latest workflow task completed (updates the task
 * accepted and completed are written after it). A task scheduled or started means more is coming.
 */
function atRest(history: History): boolean {
  const last = lastEvent(history);
  if (last && CLOSED.some((key) => last[key] != null)) return true;
  const lastTask = eventsOf(history).findLast(
    (event) =>
      event.workflowTaskScheduledEventAttributes != null ||
      event.workflowTaskStartedEventAttributes != null ||
      event.workflowTaskCompletedEventAttributes != null ||
      event.workflowTaskFailedEventAttributes != null ||
      event.workflowTaskTimedOutEventAttributes != null,
  );
  return lastTask?.workflowTaskCompletedEventAttributes != null;
}

/** The history of one execution once it is at rest (and stayed the same length for one more look). */
async function settledHistory(client: Client, workflowId: string, runId: string): Promise<History> {
  const handle = client.workflow.getHandle(workflowId, runId);
  let previous = -1;
  let history: History = {};
  await waitFor(async () => {
    history = await handle.fetchHistory();
    const length = history.events?.length ?? 0;
    const stable = atRest(history) && length === previous;
    previous = length;
    return stable;
  }, `the history of ${workflowId}/${runId} to come to rest`);
  return history;
}

/**
 * Every execution of a session's continue-as-new chain, oldest first: the latest execution names the first,
 * and each execution that continued as new names the next.
 */
export async function exportChain(client: Client, workflowId: string): Promise<History[]> {
  const latest = await client.workflow.getHandle(workflowId).fetchHistory();
  const first = latest.events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId;
  if (!first) throw new Error(`${workflowId}: no first execution run id in its history`);
  const chain: History[] = [];
  for (let runId: string | null | undefined = first; runId;) {
    const history = await settledHistory(client, workflowId, runId);
    chain.push(history);
    runId = lastEvent(history)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return chain;
}
