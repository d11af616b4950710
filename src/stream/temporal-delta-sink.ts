import { Context } from "@temporalio/activity";
import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { DELTAS_STORED, publishDeltasUpdate } from "../workflows/stream-messages.js";
import type { DeltaSink } from "./stream-delta.js";

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
      }
    },
    close: async () => undefined,
  };
}

/** The rejection that means "stored". */
function isStored(error: unknown): boolean {
  return (
    error instanceof WorkflowUpdateFailedError &&
    error.cause instanceof ApplicationFailure &&
    error.cause.type === DELTAS_STORED
  );
}
