import type { ToolEventBatch } from "../common/tool-event-batch.js";

/** Whether an update argument is a well-formed {@link ToolEventBatch} (it comes from outside the workflow). */
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
