import type { Client } from "@temporalio/client";
import { decodeSearchAttributes } from "@temporalio/common/lib/converter/payload-search-attributes.js";
import { requiredTsToDate } from "@temporalio/common/lib/time.js";
// A default import: @temporalio/proto is CommonJS without named exports that Node's ESM loader can see.
import proto from "@temporalio/proto";
import type { temporal } from "@temporalio/proto";
import { isAgentTaskQueue } from "../runtime/agent-task-queue.js";

/** A session as the visibility store lists it. */
export interface SessionListing {
  sessionId: string;
  /** The workflow's status: RUNNING, COMPLETED, CONTINUED_AS_NEW, … */
  status: string;
  startTime: Date;
  searchAttributes: Record<string, unknown>;
}

const { WorkflowExecutionStatus } = proto.temporal.api.enums.v1;

/**
 * Lists the agent sessions under a base task queue from the visibility store, reading only ids, status, start time
 * and search attributes: the SDK's own list decodes every memo, so one memo this client cannot decode (encrypted with
 * a key it lacks) would fail the whole listing, while search attributes never go through codecs.
 */
export async function* listSessions(
  temporal: Client,
  baseTaskQueue: string,
  query: string,
): AsyncGenerator<SessionListing> {
  const namespace = temporal.options.namespace;
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await temporal.workflowService.listWorkflowExecutions({ namespace, query, nextPageToken });
    for (const info of page.executions ?? []) {
      if (!isAgentTaskQueue(baseTaskQueue, info.taskQueue ?? "")) continue;
      yield {
        sessionId: info.execution?.workflowId ?? "",
        status: statusName(info.status),
        startTime: requiredTsToDate(info.startTime, "startTime"),
        searchAttributes: decodeSearchAttributes(info.searchAttributes?.indexedFields),
      };
    }
    nextPageToken = page.nextPageToken && page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
  } while (nextPageToken);
}

/** `WORKFLOW_EXECUTION_STATUS_RUNNING` → `RUNNING`, as the SDK names them. */
function statusName(code: temporal.api.enums.v1.WorkflowExecutionStatus | null | undefined): string {
  const name = WorkflowExecutionStatus[code ?? WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_UNSPECIFIED];
  return (name ?? "UNSPECIFIED").replace(/^WORKFLOW_EXECUTION_STATUS_/, "");
}
