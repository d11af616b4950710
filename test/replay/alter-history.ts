import { msToTs } from "@temporalio/common/lib/time.js";
import { scheduledActivities, timestampMs } from "./history-events.js";
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

/**
 * Alters a history (in place) so that each workflow task sees a later workflow time than the live run did: every
 * event from the n-th `WorkflowTaskStarted` on is moved `n × stepMs` later. That is what a worker can see that takes
 * over a session after a crash: the first task it runs after replaying the history runs with the time of the task
 * before (bench/results/0014-durable-overhead-log.md, phase 15). Code that decides a command by
 * workflow time replays such a history differently; code that does not, alike. Returns the history for chaining.
 */
export function spreadWorkflowTaskTimes(history: History, stepMs: number): History {
  let tasksStarted = 0;
  for (const event of history.events ?? []) {
    if (event.workflowTaskStartedEventAttributes) tasksStarted++;
    if (tasksStarted === 0 || !event.eventTime) continue;
    event.eventTime = msToTs(timestampMs(event.eventTime) + tasksStarted * stepMs);
  }
  return history;
}
