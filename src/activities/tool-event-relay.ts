import { Context, log } from "@temporalio/activity";
import { toolEventKey } from "../wire/tool-events.js";
import type { ToolEventBatch } from "../contract/stream/tool-event-batch.js";
import { toWireEvent } from "../wire/wire-conversion.js";
import type { ExecuteToolInput } from "../contract/activity-types.js";
import type { SecretScrubber } from "../wire/scrub-secrets.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import type { AgentEvent } from "../kernel/vocabulary/events.js";
import { ToolEventWindow, type ToolEventSnapshot } from "../stream/tool-event-window.js";

/** What a tool's `ctx.emit` feeds inside the activity, and what the activity's heartbeats and result carry of it. */
export interface ToolEventRelay {
  emit(event: AgentEvent): void;
  /** The details of a heartbeat: the window of events once there is one, with the tool's own `details`. */
  heartbeatDetails(details?: unknown): unknown;
  /** The window the result carries, so the session has the events the last heartbeat may have missed. */
  last(): ToolEventBatch | undefined;
}

/**
 * Relays a tool's events to readers through the activity's heartbeats (docs/decisions/0021): each goes into the
 * attempt's {@link ToolEventWindow}, sent as heartbeat details. A `done` is not relayed (it would end a reader's run);
 * events are scrubbed of the worker's secrets. Call inside the activity.
 */
export function toolEventRelay(input: ExecuteToolInput, scrubber: SecretScrubber): ToolEventRelay {
  const context = Context.current();
  const window = new ToolEventWindow({
    key: toolEventKey(input.runId, input.turn, input.call.id),
    runId: input.runId,
    attempt: context.info.attempt,
  });
  const heartbeatDetails = (details?: unknown): unknown => {
    if (window.empty) return details;
    const snapshot: ToolEventSnapshot = { toolEvents: window.batch() };
    if (details !== undefined) snapshot.details = details;
    return snapshot;
  };
  return {
    emit(event) {
      if (event.type === "done") return;
      try {
        window.add(scrubber.scrubValue(toWireEvent(event)));
        context.heartbeat(heartbeatDetails());
      } catch (error) {
        log.warn("a tool event was not relayed", { error: errorMessage(error) });
      }
    },
    heartbeatDetails,
    last: () => (window.empty ? undefined : window.batch()),
  };
}
