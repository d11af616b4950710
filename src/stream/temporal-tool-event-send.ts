import { Context } from "@temporalio/activity";
import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { TOOL_EVENTS_STORED, publishToolEventsUpdate } from "../workflows/stream-messages.js";
import type { ToolEventSend } from "./tool-event-publisher.js";

/**
 * Sends a tool's events to the session that scheduled the current activity as a `publishToolEvents` update; its
 * validator stores them and rejects the update, so nothing enters history (docs/decisions/0007). Tool events always
 * take this way, whatever carries live model output. Must be called inside the tool activity.
 */
export function temporalToolEventSend(): ToolEventSend {
  const context = Context.current();
  const workflowId = context.info.workflowExecution?.workflowId;
  if (!workflowId) throw new Error("tool events need a tool activity of a session workflow");
  const handle = context.client.workflow.getHandle(workflowId);
  return async (batch) => {
    try {
      await handle.executeUpdate(publishToolEventsUpdate, { args: [batch] });
    } catch (error) {
      if (!isStored(error)) throw error;
    }
  };
}

function isStored(error: unknown): boolean {
  return (
    error instanceof WorkflowUpdateFailedError &&
    error.cause instanceof ApplicationFailure &&
    error.cause.type === TOOL_EVENTS_STORED
  );
}
