import { scheduledActivities } from "./history-events.js";
import type { History } from "./history-files.js";

/**
 * Alters a history (in place) the way a breaking code change would show up: the first model call is recorded
 * as a tool call. Replaying it, the workflow schedules `callModel` where history says `executeTool`, which
 * Temporal reports as nondeterminism. Returns the history for chaining.
 */
export function recordFirstModelCallAsTool(history: History): History {
  const first = scheduledActivities(history, "callModel")[0]?.activityTaskScheduledEventAttributes;
  if (!first?.activityType) throw new Error("the history schedules no callModel activity to alter");
  first.activityType.name = "executeTool";
  return history;
}
