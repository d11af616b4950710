import type { ToolEventBatch } from "../contract/stream/tool-event-batch.js";

/** The key of one tool call's events; readers derive it from the call's `tool_call_start`. */
export function toolEventKey(runId: string, turn: number, callId: string): string {
  return JSON.stringify([runId, turn, callId]);
}

/** Whether a value is a well-formed {@link ToolEventBatch} (it comes from an activity result or heartbeat details). */
export function isToolEventBatch(value: unknown): value is ToolEventBatch {
  const batch = value as ToolEventBatch | null;
  return (
    typeof batch === "object" &&
    batch !== null &&
    typeof batch.key === "string" &&
    typeof batch.runId === "string" &&
    Number.isInteger(batch.attempt) &&
    Number.isInteger(batch.at) &&
    batch.at >= 0 &&
    Array.isArray(batch.events) &&
    batch.events.every(
      (event) => typeof event === "object" && event !== null && typeof event.type === "string",
    )
  );
}
