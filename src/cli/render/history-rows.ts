/** The columns of `history -o table`. */
export const HISTORY_TABLE_HEADER = ["ID", "TIME", "TYPE"] as const;

/** The events of a history in Temporal's JSON (`{events: [...]}`); none when it has none. */
export function historyEvents(history: unknown): Record<string, unknown>[] {
  const events = (history as { events?: unknown } | null)?.events;
  return Array.isArray(events) ? (events as Record<string, unknown>[]) : [];
}

/**
 * One event as a table row: its id, time and type the way Temporal's CLI names it
 * (`EVENT_TYPE_WORKFLOW_TASK_COMPLETED` → `WorkflowTaskCompleted`).
 */
export function historyEventCells(event: Record<string, unknown>): string[] {
  const type = String(event.eventType ?? "")
    .replace(/^EVENT_TYPE_/, "")
    .toLowerCase()
    .replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return [String(event.eventId ?? ""), String(event.eventTime ?? ""), type];
}
