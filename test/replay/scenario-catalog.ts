import { acceptedUpdates, eventsOf, hasEvent, lastEvent, scheduledActivities } from "./history-events.js";
import type { History } from "./history-files.js";

/** A recorded scenario: which workflow branch it exercises, and how to see it in its histories. */
export interface ScenarioSpec {
  /** The history file name stem. */
  name: string;
  /** How many executions (continue-as-new chain) the recording holds. */
  executions: number;
  /** The branch of the session workflow the scenario exercises. */
  shows: string;
  /** True when the histories (one per execution, in order) show that branch. */
  exercised(histories: History[]): boolean;
}

/** Two `executeTool` activities scheduled by the same workflow task: parallel tool calls. */
function hasParallelTools(history: History): boolean {
  const byTask = new Map<string, number>();
  for (const event of scheduledActivities(history, "executeTool")) {
    const task = String(event.activityTaskScheduledEventAttributes?.workflowTaskCompletedEventId);
    byTask.set(task, (byTask.get(task) ?? 0) + 1);
  }
  return [...byTask.values()].some((count) => count >= 2);
}

const count = (items: string[], name: string) => items.filter((item) => item === name).length;

/** The scenarios the recorder runs, one per branch of the session workflow. */
export const SCENARIOS: readonly ScenarioSpec[] = [
  {
    name: "tool-loop",
    executions: 1,
    shows: "a multi-turn tool loop with two parallel tool calls",
    exercised: ([history]) =>
      !!history && hasParallelTools(history) && scheduledActivities(history, "callModel").length === 3,
  },
  {
    name: "steer-follow-up",
    executions: 1,
    shows: "two runs in one session, a steer and a follow-up",
    exercised: ([history]) =>
      !!history &&
      count(acceptedUpdates(history), "startRun") >= 2 &&
      count(acceptedUpdates(history), "queueSteer") === 2,
  },
  {
    name: "cancel",
    executions: 1,
    shows: "a run cancelled during a slow tool, then another run",
    exercised: ([history]) =>
      !!history &&
      hasEvent(history, "activityTaskCancelRequestedEventAttributes") &&
      count(acceptedUpdates(history), "startRun") >= 2,
  },
  {
    name: "continue-as-new",
    executions: 2,
    shows: "a session that continues as new after two runs, then runs a third",
    exercised: (histories) =>
      histories.length === 2 &&
      lastEvent(histories[0]!)?.workflowExecutionContinuedAsNewEventAttributes != null &&
      scheduledActivities(histories[1]!, "callModel").length >= 1,
  },
  {
    name: "provider-error",
    executions: 1,
    shows: "a model call failing with a non-retryable provider error",
    exercised: ([history]) =>
      !!history &&
      eventsOf(history).some(
        (event) =>
          event.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.nonRetryable === true,
      ),
  },
  {
    name: "closed",
    executions: 1,
    shows: "a session closed after a run (the workflow completes)",
    exercised: ([history]) =>
      !!history && lastEvent(history)?.workflowExecutionCompletedEventAttributes != null,
  },
];
