import type { History } from "./history-files.js";

/** One event of a history. */
export type HistoryEvent = NonNullable<History["events"]>[number];

/** The events of a history (none when absent). */
export function eventsOf(history: History): HistoryEvent[] {
  return history.events ?? [];
}

/** The scheduled activities of a type, in history order. */
export function scheduledActivities(history: History, type: string): HistoryEvent[] {
  return eventsOf(history).filter(
    (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === type,
  );
}

/** The names of the updates the workflow accepted, in history order. */
export function acceptedUpdates(history: History): string[] {
  return eventsOf(history).flatMap((event) => {
    const name = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name;
    return name ? [name] : [];
  });
}

/** True when some event of the history has the given attributes field (e.g. `activityTaskFailedEventAttributes`). */
export function hasEvent(history: History, attributes: keyof HistoryEvent): boolean {
  return eventsOf(history).some((event) => event[attributes] != null);
}

/** The last event of a history. */
export function lastEvent(history: History): HistoryEvent | undefined {
  return eventsOf(history).at(-1);
}
