import type { temporal } from "@temporalio/proto";
import { Worker, type ReplayWorkerOptions } from "@temporalio/worker";

type History = temporal.api.history.v1.IHistory;

/** One execution's history to replay (one run of a workflow: each link of a continue-as-new chain is its own). */
export interface RecordedExecution {
  workflowId: string;
  runId: string;
  history: History;
  /** Which of its workflow task cuts to replay, when not all: at most `max`, shifted by `phase` (spreadEvenly). */
  cuts?: { max: number; phase: number };
}

/** An execution that does not replay: where its replay first fails, and why. */
export interface ReplayFailure {
  workflowId: string;
  runId: string;
  /** The first cut that fails: `event <id> (workflow task <n> started)`, or `the whole history`. */
  cut: string;
  error: string;
}

/** A prefix of a history a replay is tried on: what a cold worker sees when it takes workflow task `task`. */
interface Cut {
  label: string;
  events: NonNullable<History["events"]>;
}

/**
 * The cuts of a history at every workflow task boundary, in history order, then the whole history. A cut ends with
 * a `WorkflowTaskStarted` event: the history a worker without the workflow cached is given for that task, which it
 * replays up to the task and then runs. (The SDK's replayer takes a history cut there; it also takes one cut just
 * after a `WorkflowTaskCompleted`, but not one cut between a task's command events.) With more boundaries than
 * `maxCuts`, only `maxCuts` of them, spread evenly from the first to the last and shifted by `phase` (a fraction of
 * their spacing, so the executions of a chain can each take different ones): each cut replays the history up to it,
 * so the cost of every cut grows with the square of the history's length.
 */
export function workflowTaskCuts(history: History, maxCuts = Infinity, phase = 0): Cut[] {
  const events = history.events ?? [];
  const cuts: Cut[] = [];
  events.forEach((event, index) => {
    if (!event.workflowTaskStartedEventAttributes) return;
    cuts.push({
      label: `event ${String(event.eventId)} (workflow task ${cuts.length + 1} started)`,
      events: events.slice(0, index + 1),
    });
  });
  return [...spreadEvenly(cuts, maxCuts, phase), { label: "the whole history", events }];
}

/** How many workflow tasks a history records (its `WorkflowTaskStarted` events): the cuts it has. */
export function workflowTaskCount(history: History): number {
  return (history.events ?? []).filter((event) => event.workflowTaskStartedEventAttributes).length;
}

/**
 * `count` items of `items` (all when there are fewer): the first, the last, and between them `count - 2` spread
 * evenly, each shifted forward by `phase` (0 to 1) of the spacing.
 */
function spreadEvenly<T>(items: T[], count: number, phase: number): T[] {
  if (items.length <= count) return items;
  if (count < 2) return items.slice(-count);
  const spacing = (items.length - 1) / (count - 1);
  const inner = Array.from({ length: count - 2 }, (_, n) => Math.round((n + 1 + phase) * spacing));
  const picked = [0, ...inner, items.length - 1].map((index) => Math.min(index, items.length - 1));
  return [...new Set(picked)].map((index) => items[index]!);
}

/**
 * Replays every execution from its start, cut at every workflow task boundary ({@link workflowTaskCuts}; at most
 * `maxCutsPerExecution` of them, or as the execution's `cuts` says), with one replay worker; an execution's cuts stop
 * at its first failure. Resolves with the executions that do not replay (none: every cut of every execution replays).
 * Sink calls of a cut's last, live task go nowhere.
 */
export async function replayAtEveryCut(
  executions: Iterable<RecordedExecution> | AsyncIterable<RecordedExecution>,
  options: ReplayWorkerOptions,
  maxCutsPerExecution = Infinity,
): Promise<ReplayFailure[]> {
  const failures: ReplayFailure[] = [];
  let failed = false;
  let current: { execution: RecordedExecution; cut: Cut } | undefined;
  async function* cuts() {
    for await (const execution of executions) {
      failed = false;
      const { max, phase } = execution.cuts ?? { max: maxCutsPerExecution, phase: 0 };
      for (const cut of workflowTaskCuts(execution.history, max, phase)) {
        if (failed) break;
        current = { execution, cut };
        yield { workflowId: execution.workflowId, history: { events: cut.events } };
      }
    }
  }
  for await (const result of Worker.runReplayHistories({ ...options, sinks: quietSinks(options) }, cuts())) {
    if (!result.error || !current) continue;
    failed = true;
    const { execution, cut } = current;
    const error = result.error.message.replace(/\s+/g, " ").slice(0, 600);
    failures.push({ workflowId: execution.workflowId, runId: execution.runId, cut: cut.label, error });
  }
  return failures;
}

/** The options' sinks, and the session's telemetry sink as a no-op (a cut's last task calls it as a live one). */
function quietSinks(options: ReplayWorkerOptions): ReplayWorkerOptions["sinks"] {
  const noop = { fn: () => undefined, callDuringReplay: false };
  return { liteAgentTelemetry: { event: noop }, ...options.sinks };
}

/** A failure as one line: the workflow id, the run id, the first cut that fails, and the error. */
export function describeReplayFailure(failure: ReplayFailure): string {
  return `${failure.workflowId} (run ${failure.runId}) fails at ${failure.cut}: ${failure.error}`;
}
