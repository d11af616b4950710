import { proxyActivities } from "@temporalio/workflow";
import { ActiveRun } from "./active-run.js";
import type { AgentActivities } from "../../contract/activity-types.js";
import type { AgentPlan } from "../../contract/agent-plan.js";
import { toAgentError } from "../../kernel/vocabulary/errors.js";
import type { RunResult } from "../../kernel/vocabulary/events.js";
import { ZERO_USAGE, addUsage } from "../../kernel/vocabulary/model.js";
import { runKernelInto } from "../../kernel/loop/run-kernel.js";
import { kernelConfig, streamsLive } from "./run-kernel-config.js";
import { directOutlet } from "../../kernel/coroutine/event-outlet.js";
import { listedMcpTools, withListedTools, withMcpTools } from "./durable-mcp.js";
import { applicationCause } from "./failure-cause.js";
import type { QueuedRun, SuspendedRun } from "../../contract/carried-state.js";
import type { RunSnapshot } from "../../kernel/vocabulary/run-snapshot.js";
import { historyIsLong } from "./history-budget.js";
import { targetVersionChanged } from "../session/target-version.js";
import { driveUntilMoved, retoldEvents } from "../session/waiting-move.js";
import type { SessionState } from "../session/session-state.js";
import type { AgentEvent } from "../../kernel/vocabulary/events.js";
import { captureTurnEnd } from "../stream/turn-capture.js";
import type { LiveOutputMark } from "../stream/session-stream.js";

/**
 * Resolves a run's plan on the worker. An activity, never a local activity: a live worker may take a local activity's
 * result a workflow task later than a replay, reordering what that task also took (docs/decisions/0017).
 */
const { resolveAgent } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ["LiteAgent.UnknownAgent"] },
  summary: "resolve the agent's plan",
});

/** How a run left this execution: finished (with the plan it ran), or paused to continue as new. */
export interface RunOutcome {
  plan?: AgentPlan;
  suspended?: SuspendedRun;
}

/**
 * Executes one run, or goes on with one paused by continue-as-new: resolves the agent's plan on the worker, then
 * drives the kernel with Temporal ports, publishing every event to the session stream. Cancelling the run
 * cancels its in-flight activities. A long run pauses at a turn boundary when the history is long.
 */
export async function executeRun(
  session: SessionState,
  run: QueuedRun,
  resumed?: SuspendedRun,
): Promise<RunOutcome> {
  const usage = resumed?.snapshot.usage ?? ZERO_USAGE;
  const active = new ActiveRun(run.runId, run.offset, resumed?.snapshot.turn ?? 0, usage);
  session.current = active;
  try {
    const plan = await resolvePlan(session, run);
    if (!plan) return {};
    // From the activity's recorded result, so a replay shows the same; a fixed file drops out at the next run.
    session.skillDiagnostics = plan.skillDiagnostics;
    // The run's start is upserted once its plan says when that was, so its first turns are spaced from then.
    session.visibility.noteRecordedTime(plan.resolvedAt);
    session.refreshVisibility();
    session.visibility.describeAgent(plan.name, plan.model);
    const driven = await active.scope.run(async () =>
      driveKernel(session, run, await runTools(session, run.runId, plan, resumed), resumed),
    );
    if ("suspended" in driven) return { suspended: driven.suspended };
    session.messages = driven.result.messages;
    // A build that no longer asks for a call whose wait was carried in leaves that wait behind: it ends here.
    session.board.settleRun(run.runId, "no longer asked");
    session.finishRun(run.runId, driven.result, session.current.turn);
    return { plan };
  } finally {
    session.current = undefined;
    session.refreshVisibility();
  }
}

/** The agent's plan, from the worker; on the session's own model when it has one (a fork onto another model). */
async function resolvePlan(session: SessionState, run: QueuedRun): Promise<AgentPlan | undefined> {
  try {
    const plan = await resolveAgent(session.agent);
    return session.input.model ? { ...plan, model: session.input.model } : plan;
  } catch (error) {
    const cause = applicationCause(error);
    const failure = toAgentError(new Error(cause?.message ?? String(error)));
    session.publish(run.runId, { type: "error", error: failure, fatal: true });
    const result: RunResult = { messages: [], text: "", usage: ZERO_USAGE, stopReason: "error" };
    session.publish(run.runId, { type: "done", reason: "error", result });
    session.finishRun(run.runId, result, 0);
    return undefined;
  }
}

/**
 * The plan with the run's MCP tools: listed now (recorded in the history), or for a run that continued as new, the
 * list it started with.
 */
async function runTools(
  session: SessionState,
  runId: string,
  plan: AgentPlan,
  resumed: SuspendedRun | undefined,
): Promise<AgentPlan> {
  if (!session.usesMcpTools(plan)) return plan;
  if (resumed?.mcpTools) return withListedTools(plan, resumed.mcpTools);
  const listed = await withMcpTools(plan, (event) => session.publish(runId, event));
  // As recorded by the listing activities; the status names them until a later run lists every server.
  session.mcpUnavailable = listed.unavailable.length > 0 ? listed.unavailable : undefined;
  session.refreshVisibility();
  return listed.plan;
}

type Driven = { result: RunResult } | { suspended: SuspendedRun };

async function driveKernel(
  session: SessionState,
  run: QueuedRun,
  plan: AgentPlan,
  resumed: SuspendedRun | undefined,
): Promise<Driven> {
  const active = session.current!;
  // The kernel drops system messages from a run's history; the session does too, so positions in the
  // conversation (where the run's messages begin, how much is archived) mean the same on both sides.
  if (!resumed) session.messages = session.transcript.withoutSystemMessages(session.messages);
  const historyLength = resumed?.historyLength ?? session.messages.length;
  active.addedFrom = historyLength;
  active.live = resumed?.snapshot.messages ?? session.messages;
  const model = modelCalls(resumed?.modelCalls ?? 0);
  let snapshot: RunSnapshot | undefined;
  const live = streamsLive(plan);
  const mark = liveOutputMark(plan, live);
  let published: RunResult | undefined;
  const retold = retoldEvents(resumed?.snapshot.toolPhase);
  // Each event is handled as the kernel delivers it, with no promise per event (docs/decisions/0014).
  const take = (event: AgentEvent): void => {
    if (event.type === "turn_start") active.turn = event.turn;
    if (event.type === "turn_end") captureTurnEnd(session, active, event);
    if (event.type === "model_call_end" && event.usage) active.usage = addUsage(active.usage, event.usage);
    if (event.type === "subagent" && event.usage) active.usage = addUsage(active.usage, event.usage);
    // Live output reaches clients from the model activity; the recorded copy would show it twice.
    if (event.type === "reasoning_delta" || (live && event.type === "text_delta")) return;
    if (retold(event)) return;
    if (event.type === "done")
      published = publishDone(session, run.runId, event, active.addedFrom ?? historyLength);
    else session.publish(run.runId, event, modelCallOf(event, model.count()), mark);
    if (event.type === "turn_end" || event.type === "model_call_end") session.refreshVisibility();
  };
  // A run that waits for a person moves too, where it waits, when another build becomes the target.
  const moves = () => targetVersionChanged() && session.subagents.size === 0;
  const driven = await driveUntilMoved(
    (toolPhase) =>
      runKernelInto(directOutlet(take), kernelConfig(session, plan, run.runId, model), run.input, {
        sessionId: session.sessionId,
        signal: active.controller.signal,
        steer: session.steers,
        history: session.messages,
        ...(run.images ? { images: run.images } : {}),
        ...(resumed ? { resume: resumed.snapshot } : {}),
        suspend: {
          // Not while subagents run: continuing as new would close the execution that is their parent.
          requested: () =>
            (historyIsLong(plan.continueAsNew) || targetVersionChanged()) && session.subagents.size === 0,
          suspend: (paused) => void (snapshot = paused),
          toolPhase,
        },
      }),
    session.board,
    moves,
  );
  if ("moved" in driven) snapshot = driven.moved;
  else if (!snapshot) {
    const { result } = driven;
    return { result: published ? { ...result, stopReason: published.stopReason } : result };
  }
  const suspended = {
    run,
    snapshot,
    historyLength: active.addedFrom ?? historyLength,
    modelCalls: model.count(),
    // The next execution goes on with the tools the run was listed, not a new listing.
    ...(session.usesMcpTools(plan) ? { mcpTools: listedMcpTools(plan) } : {}),
  };
  return { suspended };
}

/**
 * The run's end: a fatal error set by the session (approval timeout with `fail`) turns an abort into an error. `done`
 * carries only the run's own messages: from `addedFrom`, or after a compaction from the first run message it kept
 * (what it compacted away is in the transcript; the summary is never in `done`).
 */
function publishDone(
  session: SessionState,
  runId: string,
  event: Extract<AgentEvent, { type: "done" }>,
  addedFrom: number,
): RunResult {
  const fatal = session.current?.fatal;
  let result: RunResult = { ...event.result, messages: event.result.messages.slice(addedFrom) };
  if (fatal) {
    session.publish(runId, { type: "error", error: fatal, fatal: true });
    result = { ...result, stopReason: "error" };
  }
  session.publish(runId, { type: "done", reason: result.stopReason, result });
  return result;
}

/**
 * How the run's model call events tell readers where live output went: nowhere (a buffering codec, a worker without
 * live output: a reader waiting for an end marker would wait 5 s a call), through Temporal (heartbeats: no marker, the
 * reader takes the call's tail from its message), or unmarked (a plan made elsewhere: wherever the worker's transport sends it).
 */
function liveOutputMark(plan: AgentPlan, live: boolean): LiveOutputMark {
  if (!live || plan.liveOutput === "none") return false;
  return plan.liveOutput === "temporal" ? "session" : true;
}

/**
 * The number of the model call a `model_call_start` opens (the next one) or a `model_call_end` closes (the last
 * one): readers pair a call's live output with its events by it.
 */
function modelCallOf(event: AgentEvent, calls: number): number | undefined {
  if (event.type === "model_call_start") return calls + 1;
  if (event.type === "model_call_end") return calls;
  return undefined;
}

/** Numbers a run's model calls, going on from where the previous execution stopped. */
function modelCalls(before: number): { next(): number; count(): number } {
  let calls = before;
  return { next: () => ++calls, count: () => calls };
}
