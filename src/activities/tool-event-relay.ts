import { Context, log } from "@temporalio/activity";
import { toolEventKey } from "../common/tool-event-batch.js";
import { toWireEvent } from "../common/wire-event.js";
import type { ExecuteToolInput } from "../common/activity-types.js";
import type { SecretScrubber } from "../common/scrub-secrets.js";
import { errorMessage } from "../kernel/errors.js";
import type { AgentEvent } from "../kernel/events.js";
import { ToolEventPublisher, type ToolEventSend } from "../stream/tool-event-publisher.js";
import { temporalToolEventSend } from "../stream/temporal-tool-event-send.js";

/** What a tool's `ctx.emit` feeds inside the activity, and how the activity finishes it. */
export interface ToolEventRelay {
  emit(event: AgentEvent): void;
  /** Waits (a short deadline at most) until the emitted events are stored; never throws. */
  end(): Promise<void>;
}

/**
 * Relays the events a tool emits to the session, live (docs/decisions/0007). The publisher is opened on the first
 * event, so tools that emit nothing cost nothing. A `done` is not relayed: it would end a reader's run. Events are
 * scrubbed of the worker's secrets and sent whole (a batch at or above the storage threshold travels by reference, ADR 0004).
 */
export function toolEventRelay(
  input: ExecuteToolInput,
  scrubber: SecretScrubber,
  send: () => ToolEventSend = temporalToolEventSend,
): ToolEventRelay {
  let publisher: ToolEventPublisher | undefined;
  let unavailable = false;
  const open = (): ToolEventPublisher | undefined => {
    if (publisher || unavailable) return publisher;
    try {
      const origin = {
        key: toolEventKey(input.runId, input.turn, input.call.id),
        runId: input.runId,
        attempt: Context.current().info.attempt,
      };
      publisher = new ToolEventPublisher(send(), origin);
    } catch (error) {
      unavailable = true;
      log.warn("tool events unavailable for this call", { error: errorMessage(error) });
    }
    return publisher;
  };
  return {
    emit(event) {
      if (event.type === "done") return;
      try {
        open()?.push(scrubber.scrubValue(toWireEvent(event)));
      } catch (error) {
        log.warn("a tool event was not relayed", { error: errorMessage(error) });
      }
    },
    async end() {
      if (publisher && !(await publisher.end()))
        log.warn("tool events were not all delivered live", { dropped: publisher.dropped });
    },
  };
}
