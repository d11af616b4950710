import type { Client } from "@temporalio/client";
import type { temporal } from "@temporalio/proto";

type History = temporal.api.history.v1.IHistory;

/**
 * Every execution's history of a session, oldest first: the current execution's, then, following each one's
 * `continuedExecutionRunId`, the executions it continued as new from. Rejects with Temporal's WorkflowNotFoundError
 * for an unknown session.
 */
export async function sessionExecutionHistories(client: Client, sessionId: string): Promise<History[]> {
  const histories: History[] = [];
  let runId: string | undefined;
  do {
    const history = await client.workflow.getHandle(sessionId, runId).fetchHistory();
    histories.unshift(history);
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    runId = started?.continuedExecutionRunId || undefined;
  } while (runId);
  return histories;
}
