import {
  acceptedUpdateEventId,
  acceptedUpdates,
  eventsOf,
  hasEvent,
  lastEvent,
  scheduledActivities,
  searchAttributeUpserts,
  startedTimers,
  storedPayloadReferences,
  timerEnd,
  type HistoryEvent,
} from "./history-events.js";
import type { History } from "./history-files.js";
import { EXTERNALIZED_RESULT_PREFIX } from "../../src/kernel/context/edits/externalize-seen-results.js";
import { PROGRESS_UPSERT_INTERVAL_MS } from "../../src/workflows/session/session-visibility.js";

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
  /**
   * The histories hold payloads stored outside them (external storage references), whose blobs are committed in
   * test/replay/payloads. Every other scenario's histories must be whole on their own.
   */
  storesPayloads?: boolean;
}

/** The default approval timeout (24 h): the timer of an approval that waits for a person. */
const DEFAULT_APPROVAL_WAIT_S = 24 * 60 * 60;

/** The payload size from which payloads are stored externally (128 KiB, ADR 0004). */
const STORAGE_THRESHOLD_BYTES = 128 * 1024;

/** The approval timer: the one timer set for `seconds`, and how it ended. */
function approvalTimer(
  history: History,
  seconds: number,
): { eventId: number; end: string | undefined } | undefined {
  const timers = startedTimers(history).filter((timer) => timer.seconds === seconds);
  if (timers.length !== 1) return undefined;
  return { eventId: Number(timers[0]!.eventId), end: timerEnd(history, timers[0]!.timerId) };
}

const eventId = (event: HistoryEvent) => Number(String(event.eventId));

/** A payload's data as text: bytes as loaded by the SDK, or base64 in the JSON form ("" when absent). */
function payloadText(data: unknown): string {
  if (typeof data === "string") return Buffer.from(data, "base64").toString("utf8");
  return data instanceof Uint8Array ? Buffer.from(data).toString("utf8") : "";
}

/** The names of the marker events a history records (patches, local activities, side effects), in order. */
export function markerNames(history: History): string[] {
  return eventsOf(history).flatMap((event) => event.markerRecordedEventAttributes?.markerName ?? []);
}

/** The session workflow's start input, decoded from the history's first event. */
function startInput(history: History): Record<string, unknown> {
  const input = eventsOf(history)[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
  return JSON.parse(payloadText(input) || "{}") as Record<string, unknown>;
}

/** The ids of the scheduled events of a type's activities whose cancellation the workflow requested. */
function cancelRequested(history: History, type: string): HistoryEvent[] {
  const scheduled = new Set(scheduledActivities(history, type).map((event) => String(event.eventId)));
  return eventsOf(history).filter((event) =>
    scheduled.has(String(event.activityTaskCancelRequestedEventAttributes?.scheduledEventId ?? "")),
  );
}

/**
 * A four-turn run on a worker without live output upserts its progress once in the middle (at least the interval
 * after the run's start by the times workers recorded: at the end of the model call after the resting tool's turn),
 * exact totals at its end, and starts no timer.
 */
function fewerTurnCommands(history: History): boolean {
  const upserts = searchAttributeUpserts(history).filter((upsert) => "AgentStatus" in upsert.values);
  const running = upserts.filter((upsert) => upsert.values.AgentStatus === "running");
  const last = upserts.at(-1)?.values;
  return (
    scheduledActivities(history, "callModel").length === 4 &&
    startedTimers(history).length === 0 &&
    running.length === 2 &&
    running[1]!.workflowTimeMs - running[0]!.workflowTimeMs >= PROGRESS_UPSERT_INTERVAL_MS &&
    running[1]!.values.AgentTurns === 3 &&
    last?.AgentStatus === "idle" &&
    last.AgentTurns === 4
  );
}

/** The run's plan is resolved by one `resolveAgent` activity, and the history records no marker at all. */
function resolvesPlanByActivity(history: History): boolean {
  return scheduledActivities(history, "resolveAgent").length === 1 && markerNames(history).length === 0;
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

/** The inputs of the `callModel` activities a history scheduled, as JSON text (empty when stored elsewhere). */
function modelCallInputs(history: History): string[] {
  return scheduledActivities(history, "callModel").map((event) => {
    const data = event.activityTaskScheduledEventAttributes?.input?.payloads?.[0]?.data;
    return data ? Buffer.from(data).toString("utf8") : "";
  });
}

/** The request keys of the `callModel` activities a history scheduled. */
function modelCallKeys(history: History): string[] {
  return modelCallInputs(history).map((input) =>
    input ? String((JSON.parse(input) as { requestKey?: string }).requestKey) : "",
  );
}

/**
 * The approval scenarios' shape around a person's decision: one approval timer (the default wait), cancelled
 * because the update `update` came after it, and no tool activity.
 */
function decidedWithoutTool(history: History, update: string): boolean {
  const timer = approvalTimer(history, DEFAULT_APPROVAL_WAIT_S);
  const decided = acceptedUpdateEventId(history, update);
  return (
    timer?.end === "canceled" &&
    decided !== undefined &&
    decided > timer.eventId &&
    scheduledActivities(history, "executeTool").length === 0 &&
    scheduledActivities(history, "callModel").length === 2
  );
}

/** A tool activity's result carries the window of its tool's events (docs/decisions/0021). */
function carriesToolEvents(history: History): boolean {
  return eventsOf(history).some((event) =>
    payloadText(event.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data).includes(
      '"toolEvents"',
    ),
  );
}

const count = (items: string[], name: string) => items.filter((item) => item === name).length;

/** The scenarios the recorder runs, one per branch of the session workflow. */
export const SCENARIOS: readonly ScenarioSpec[] = [
  {
    name: "tool-loop",
    executions: 1,
    shows:
      "a multi-turn tool loop with two parallel tool calls, one of whose results carries the tool's events",
    exercised: ([history]) =>
      !!history &&
      hasParallelTools(history) &&
      scheduledActivities(history, "callModel").length === 3 &&
      carriesToolEvents(history),
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
    name: "mid-run-continue-as-new",
    executions: 2,
    shows:
      "one run that continues as new between two of its turns and finishes in the next execution, whose first workflow task resolves the run's plan by an activity and makes its first streaming model call",
    exercised: (histories) =>
      histories.length === 2 &&
      resolvesPlanByActivity(histories[1]!) &&
      lastEvent(histories[0]!)?.workflowExecutionContinuedAsNewEventAttributes != null &&
      count(acceptedUpdates(histories[1]!), "startRun") === 0 &&
      scheduledActivities(histories[1]!, "callModel").length >= 1 &&
      scheduledActivities(histories[1]!, "executeTool").length >= 1,
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
  {
    name: "approval-wait",
    executions: 1,
    shows: "a tool call that waits for approval (its timer set), is approved by update, then runs",
    exercised: ([history]) => {
      if (!history) return false;
      const timer = approvalTimer(history, DEFAULT_APPROVAL_WAIT_S);
      const decided = acceptedUpdateEventId(history, "decideToolCall");
      const tools = scheduledActivities(history, "executeTool");
      return (
        timer?.end === "canceled" &&
        decided !== undefined &&
        decided > timer.eventId &&
        tools.length === 1 &&
        eventId(tools[0]!) > decided &&
        scheduledActivities(history, "callModel").length === 2
      );
    },
  },
  {
    name: "approval-timeout",
    executions: 1,
    shows: "a tool call whose approval times out (its timer fires) and is denied, then the run finishes",
    exercised: ([history]) =>
      !!history &&
      approvalTimer(history, 1)?.end === "fired" &&
      acceptedUpdateEventId(history, "decideToolCall") === undefined &&
      scheduledActivities(history, "executeTool").length === 0 &&
      scheduledActivities(history, "callModel").length === 2,
  },
  {
    name: "approval-deny",
    executions: 1,
    shows: "a tool call that waits for approval (its timer set), is denied by update, and never runs",
    exercised: ([history]) => !!history && decidedWithoutTool(history, "decideToolCall"),
  },
  {
    name: "approvers",
    executions: 1,
    shows:
      "a plan with approvers: an approve signal from an actor it does not name is ignored (the wait goes on), one from an approver decides, then the tool runs",
    exercised: ([history]) => {
      if (!history) return false;
      const timer = approvalTimer(history, DEFAULT_APPROVAL_WAIT_S);
      const signals = eventsOf(history).filter(
        (event) => event.workflowExecutionSignaledEventAttributes?.signalName === "approve",
      );
      const tools = scheduledActivities(history, "executeTool");
      return (
        timer?.end === "canceled" &&
        signals.length === 2 &&
        eventId(signals[0]!) > timer.eventId &&
        tools.length === 1 &&
        eventId(tools[0]!) > eventId(signals[1]!)
      );
    },
  },
  {
    name: "question",
    executions: 1,
    shows:
      "an ask_user question that waits in the workflow (its timer set, no activity), answered by update, then the run finishes",
    exercised: ([history]) =>
      !!history &&
      decidedWithoutTool(history, "answerQuestion") &&
      acceptedUpdateEventId(history, "decideToolCall") === undefined,
  },
  {
    name: "context-engine",
    executions: 1,
    shows: "a ContextEngine run past level 0: the last model call gets a seen tool result externalised",
    exercised: ([history]) =>
      !!history &&
      scheduledActivities(history, "executeTool").length === 2 &&
      modelCallInputs(history).length === 3 &&
      modelCallInputs(history).at(-1)!.includes(EXTERNALIZED_RESULT_PREFIX.trim()) &&
      !modelCallInputs(history).at(0)!.includes(EXTERNALIZED_RESULT_PREFIX.trim()),
  },
  {
    name: "interrupt",
    executions: 1,
    shows:
      "a model call cancelled in flight by an interrupt update, then a new model call that finishes the run; no timer",
    exercised: ([history]) => {
      if (!history) return false;
      const interrupted = acceptedUpdateEventId(history, "interruptRun");
      const cancels = cancelRequested(history, "callModel");
      const calls = scheduledActivities(history, "callModel");
      return (
        interrupted !== undefined &&
        cancels.length === 1 &&
        eventId(cancels[0]!) > interrupted &&
        calls.length === 2 &&
        eventId(calls[1]!) > eventId(cancels[0]!) &&
        startedTimers(history).length === 0
      );
    },
  },
  {
    name: "cancel-during-approval",
    executions: 1,
    shows: "a run cancelled while a tool call waits for approval (the wait ends, the tool never runs)",
    exercised: ([history]) => {
      if (!history) return false;
      const timer = approvalTimer(history, DEFAULT_APPROVAL_WAIT_S);
      const cancelled = acceptedUpdateEventId(history, "cancelRun");
      return (
        timer?.end === "canceled" &&
        cancelled !== undefined &&
        cancelled > timer.eventId &&
        acceptedUpdateEventId(history, "decideToolCall") === undefined &&
        scheduledActivities(history, "executeTool").length === 0
      );
    },
  },
  {
    name: "stored-payload",
    executions: 1,
    storesPayloads: true,
    shows: "a tool result above the storage threshold, stored externally and referenced from the history",
    exercised: ([history]) =>
      !!history &&
      storedPayloadReferences(history).some(
        (reference) =>
          reference.place.endsWith("activityTaskCompletedEventAttributes") &&
          reference.driverName === "lite-agent-fs" &&
          reference.sizeBytes >= STORAGE_THRESHOLD_BYTES,
      ),
  },
  {
    name: "compaction",
    executions: 2,
    shows:
      "an llm compaction (a summary callModel and an archiveTranscript activity) in a run that then continues as new mid-run",
    exercised: (histories) =>
      histories.length === 2 &&
      lastEvent(histories[0]!)?.workflowExecutionContinuedAsNewEventAttributes != null &&
      modelCallKeys(histories[0]!).some((key) => key.includes("/summary:")) &&
      scheduledActivities(histories[0]!, "archiveTranscript").length === 1 &&
      count(acceptedUpdates(histories[1]!), "startRun") === 0 &&
      scheduledActivities(histories[1]!, "executeTool").length >= 1,
  },
  {
    name: "subagent",
    executions: 1,
    shows: "a delegation: a child session started for the task, its result awaited, then the run answers",
    exercised: ([history]) =>
      !!history &&
      hasEvent(history, "startChildWorkflowExecutionInitiatedEventAttributes") &&
      hasEvent(history, "childWorkflowExecutionCompletedEventAttributes"),
  },
  {
    name: "background",
    executions: 1,
    shows:
      "a joinable background group: the tool answers at once, the child runs while the run joins, its note feeds the next turn",
    exercised: ([history]) =>
      !!history &&
      hasEvent(history, "startChildWorkflowExecutionInitiatedEventAttributes") &&
      hasEvent(history, "childWorkflowExecutionCompletedEventAttributes") &&
      scheduledActivities(history, "callModel").length === 3,
  },
  {
    name: "background-limits",
    executions: 1,
    shows:
      "backgroundLimits.maxTotal counting the session's detached group: a joinable group refused (no child started), the detached group's note in the next run",
    exercised: ([history]) =>
      !!history &&
      eventsOf(history).filter((event) => event.startChildWorkflowExecutionInitiatedEventAttributes != null)
        .length === 1 &&
      hasEvent(history, "childWorkflowExecutionCompletedEventAttributes") &&
      modelCallInputs(history).some((input) => input.includes("(maxTotal 1)")) &&
      modelCallInputs(history).some((input) => input.includes("background-task-completed")),
  },
  {
    name: "cancel-background-join",
    executions: 1,
    shows:
      "a run cancelled while it joins a background group: the child is cancelled and the run's end waits for it (a timer bounds the wait)",
    exercised: ([history]) =>
      !!history &&
      hasEvent(history, "childWorkflowExecutionCanceledEventAttributes") &&
      hasEvent(history, "timerCanceledEventAttributes"),
  },
  {
    name: "middleware",
    executions: 1,
    shows:
      "a definition's own middleware in the workflow: an effect (runEffect activity) after the tool call",
    exercised: ([history]) =>
      !!history &&
      scheduledActivities(history, "runEffect").length === 1 &&
      scheduledActivities(history, "executeTool").length === 1,
  },
  {
    name: "budget",
    executions: 1,
    shows: "a priced model: the session's cost upserted as the AgentCost search attribute",
    exercised: ([history]) =>
      !!history &&
      eventsOf(history).some(
        (event) =>
          event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.AgentCost !==
          undefined,
      ),
  },
  {
    name: "mcp",
    executions: 1,
    shows:
      "MCP tools: the run lists the server's tools (listMcpTools activity, recorded) and calls one (callMcpTool)",
    exercised: ([history]) =>
      !!history &&
      scheduledActivities(history, "listMcpTools").length === 1 &&
      scheduledActivities(history, "callMcpTool").length === 1,
  },
  {
    name: "fork",
    executions: 1,
    shows:
      "a forked session: it starts with another session's conversation (seed, forkedFrom) and runs one model call of its own",
    exercised: ([history]) => {
      if (!history) return false;
      const input = startInput(history);
      return (
        Array.isArray(input.seed) &&
        input.seed.length === 4 &&
        typeof input.forkedFrom === "object" &&
        scheduledActivities(history, "callModel").length === 1 &&
        scheduledActivities(history, "executeTool").length === 0
      );
    },
  },
  {
    name: "tool-fork",
    executions: 1,
    shows:
      "a tool's ctx.fork from its activity: a startFork update starts a child session seeded with the conversation",
    exercised: ([history]) =>
      !!history &&
      count(acceptedUpdates(history), "startFork") === 1 &&
      hasEvent(history, "startChildWorkflowExecutionInitiatedEventAttributes") &&
      hasEvent(history, "childWorkflowExecutionCompletedEventAttributes"),
  },
  {
    name: "fewer-turn-commands",
    executions: 1,
    shows:
      "a run's progress upserted at most every PROGRESS_UPSERT_INTERVAL_MS, and no timer, on a worker without live output",
    exercised: ([history]) => !!history && fewerTurnCommands(history),
  },
];
