import { CancellationScope, proxyLocalActivities } from "@temporalio/workflow";
import type { AgentActivities } from "../common/activity-types.js";
import type { AgentPlan } from "../common/agent-plan.js";
import { codecFor } from "../kernel/codecs/codec-for.js";
import { toAgentError } from "../kernel/errors.js";
import type { RunResult } from "../kernel/events.js";
import type { KernelConfig } from "../kernel/kernel-config.js";
import { ZERO_USAGE, addUsage } from "../kernel/model.js";
import { runKernel } from "../kernel/run-kernel.js";
import { durableModel } from "./durable-model.js";
import { durableTools } from "./durable-tools.js";
import { applicationCause } from "./failure-cause.js";
import type { QueuedRun } from "./session-input.js";
import type { SessionState } from "./session-state.js";
import { workflowPorts } from "./workflow-ports.js";
import { durableApprover, durableInput, type ApprovalHost } from "./durable-approvals.js";
import { planPermission } from "../common/plan-permission.js";
import { planSettings } from "../common/plan-settings.js";
import type { AgentEvent } from "../kernel/events.js";

const { resolveAgent } = proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ["LiteAgent.UnknownAgent"] },
});

/**
 * Executes one run: resolves the agent's plan on the worker, then drives the kernel with Temporal ports,
 * publishing every event to the session stream. Cancelling the run cancels its in-flight activities.
 */
export async function executeRun(session: SessionState, run: QueuedRun): Promise<AgentPlan | undefined> {
  const controller = new AbortController();
  const scope = new CancellationScope();
  session.current = { runId: run.runId, turn: 0, controller, scope, usage: ZERO_USAGE };
  try {
    session.refreshVisibility();
    const plan = await resolvePlan(session, run);
    if (!plan) return undefined;
    session.visibility.describeAgent(plan.name, plan.model);
    const result = await scope.run(() => driveKernel(session, run, plan));
    session.messages = result.messages;
    session.finishRun(run.runId, result, session.current.turn);
    return plan;
  } finally {
    session.current = undefined;
    session.refreshVisibility();
  }
}

async function resolvePlan(session: SessionState, run: QueuedRun): Promise<AgentPlan | undefined> {
  try {
    return await resolveAgent(session.agent);
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

async function driveKernel(session: SessionState, run: QueuedRun, plan: AgentPlan): Promise<RunResult> {
  const active = session.current!;
  const history = session.messages;
  const events = runKernel(kernelConfig(session, plan, run.runId), run.input, {
    sessionId: session.sessionId,
    signal: active.controller.signal,
    steer: session.steers,
    history,
    ...(run.images ? { images: run.images } : {}),
  });
  const live = streamsLive(plan);
  let published: RunResult | undefined;
  for (;;) {
    const next = await events.next();
    if (next.done) return published ? { ...next.value, stopReason: published.stopReason } : next.value;
    const event = next.value;
    if (event.type === "turn_start") active.turn = event.turn;
    if (event.type === "model_call_end" && event.usage) active.usage = addUsage(active.usage, event.usage);
    // Live output reaches clients from the model activity; the recorded copy would show it twice.
    if (event.type === "reasoning_delta" || (live && event.type === "text_delta")) continue;
    if (event.type === "done") published = publishDone(session, run.runId, event, history.length);
    else session.publish(run.runId, event);
    if (event.type === "turn_end" || event.type === "model_call_end") session.refreshVisibility();
  }
}

/** The run's end: a fatal error set by the session (approval timeout with `fail`) turns an abort into an error. */
function publishDone(
  session: SessionState,
  runId: string,
  event: Extract<AgentEvent, { type: "done" }>,
  historyLength: number,
): RunResult {
  const fatal = session.current?.fatal;
  // The conversation before this run is the session's; the event carries only what this run added.
  let result: RunResult = { ...event.result, messages: event.result.messages.slice(historyLength) };
  if (fatal) {
    session.publish(runId, { type: "error", error: fatal, fatal: true });
    result = { ...result, stopReason: "error" };
  }
  session.publish(runId, { type: "done", reason: result.stopReason, result });
  return result;
}

/** Passthrough codecs stream the model's text as it comes; buffered codecs show only the decoded answer. */
function streamsLive(plan: AgentPlan): boolean {
  return codecFor(plan.codec).streaming !== "buffer";
}

function approvalHost(session: SessionState, runId: string): ApprovalHost {
  return {
    board: session.board,
    runId,
    now: workflowPorts.now,
    changed: () => session.refreshVisibility(),
    fail: (error) => {
      const active = session.current;
      if (!active) return;
      active.fatal = error;
      active.controller.abort(error.message);
      active.scope.cancel();
    },
  };
}

function kernelConfig(session: SessionState, plan: AgentPlan, runId: string): KernelConfig {
  const host = approvalHost(session, runId);
  const config: KernelConfig = {
    ...planSettings(plan),
    model: durableModel({
      plan,
      runId,
      currentTurn: () => session.current?.turn ?? 0,
      requests: session.requests,
      inlineRequests: session.input.inlineRequests === true,
      streamLive: streamsLive(plan),
    }),
    tools: durableTools(plan, runId),
    use: planPermission(plan.permission, durableApprover(host, plan.permission), false),
    input: durableInput(host, plan.permission),
    // Background work in durable runs belongs in child workflows; tools run as activities and get no registry.
    background: false,
    ports: workflowPorts,
  };
  return config;
}
