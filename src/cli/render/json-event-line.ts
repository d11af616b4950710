import { toWireEvent } from "../../wire/wire-conversion.js";
import type { DurableEvent } from "../../client/events/run-event-stream.js";

/**
 * One line of `--json` output: the event as plain data (an `error` event's error as `{name, message}`), with
 * the session, run and stream offset it belongs to. Ends with a newline.
 */
export function jsonEventLine(event: DurableEvent, sessionId: string): string {
  const { offset, runId, deltaId, ...body } = event;
  const wire = toWireEvent(body);
  return `${JSON.stringify({ ...wire, sessionId, runId, offset, ...(deltaId === undefined ? {} : { deltaId }) })}\n`;
}
