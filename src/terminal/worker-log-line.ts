import type { LogEntry } from "@temporalio/worker";

/**
 * One short line for a worker log entry, instead of the SDK's multi-line dump with task tokens and stack
 * traces: `[worker WARN] Activity failed (callModel): <error message>`.
 */
export function workerLogLine(entry: LogEntry): string {
  const meta = entry.meta ?? {};
  const where = [meta.activityType, meta.workflowType].filter((part) => typeof part === "string").join(", ");
  const error =
    meta.error instanceof Error
      ? `: ${meta.error.message}`
      : meta.error !== undefined
        ? `: ${String(meta.error)}`
        : "";
  return `[worker ${entry.level}] ${entry.message}${where ? ` (${where})` : ""}${error}`;
}
