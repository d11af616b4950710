import { Context } from "@temporalio/activity";
import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { DELTAS_STORED, publishDeltasUpdate } from "../workflows/stream-messages.js";
import type { DeltaReceipt, DeltaSink } from "./stream-delta.js";

/**
 * The Temporal-native transport: a batch goes to the session workflow as a `publishDeltas` update whose
 * validator keeps it in the worker's memory and rejects the update, so live output writes nothing into history
 * (docs/decisions/0005). Clients read it with the `readStream` query, next to the durable events. Needs no other
 * service. Must be created inside the model activity.
 */
export function temporalDeltaSink(): DeltaSink {
  const context = Context.current();
  const workflowId = context.info.workflowExecution?.workflowId;
  if (!workflowId) throw new Error("live output needs a model activity of a session workflow");
  const handle = context.client.workflow.getHandle(workflowId);
  return {
    async send(deltas) {
      try {
        await handle.executeUpdate(publishDeltasUpdate, { args: [deltas] });
      } catch (error) {
        if (!isStored(error)) throw error;
        return deltaReceipt(error);
      }
    },
    close: async () => undefined,
  };
}

/** What the session said with "stored": whether anyone reads its live output (a session on older code says nothing). */
export function deltaReceipt(error: WorkflowUpdateFailedError): DeltaReceipt | undefined {
  const [receipt] = (error.cause as ApplicationFailure).details ?? [];
  const unread = (receipt as Partial<DeltaReceipt> | undefined)?.unread;
  return typeof unread === "boolean" ? { unread } : undefined;
}

/** The rejection that means "stored". */
function isStored(error: unknown): error is WorkflowUpdateFailedError {
  return (
    error instanceof WorkflowUpdateFailedError &&
    error.cause instanceof ApplicationFailure &&
    error.cause.type === DELTAS_STORED
  );
}
