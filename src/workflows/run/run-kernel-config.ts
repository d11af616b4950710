import type { AgentPlan } from "../../contract/agent-plan.js";
import { codecFor } from "../../kernel/codecs/codec-for.js";
import type { KernelConfig } from "../../kernel/loop/kernel-config.js";
import { withoutStartHook } from "../../kernel/loop/fork.js";
import type { Middleware } from "../../kernel/middleware/middleware.js";
import { planPermission } from "../../plan/plan-permission.js";
import { planSettings } from "../../plan/plan-settings.js";
import { planBudget } from "../../plan/plan-budget.js";
import { skillDiagnostics } from "../../plan/skill-diagnostics.js";
import { awaitBackgroundStop } from "../children/background-stop.js";
import { durableCompaction } from "../transcript/durable-compaction.js";
import { durableEffects } from "./durable-effects.js";
import { durableModel } from "./durable-model.js";
import { durableUse } from "./durable-use.js";
import { durableForkRunner } from "./durable-fork.js";
import { durableTools } from "./durable-tools.js";
import { durableApprover, durableInput, type ApprovalHost } from "../approvals/durable-approvals.js";
import type { SessionState } from "../session/session-state.js";
import { turnTracker } from "../stream/turn-capture.js";
import { workflowPorts } from "./workflow-ports.js";

/**
 * The kernel configuration of one durable run: the plan's settings, with the model, tools, effects, approvals and
 * background work as activities, timers and child workflows of this session; `calls` numbers its model calls.
 */
export function kernelConfig(
  session: SessionState,
  plan: AgentPlan,
  runId: string,
  calls: { next(): number; count(): number },
): KernelConfig {
  const host = approvalHost(session, runId);
  const approver = durableApprover(host, plan.permission);
  const effects = durableEffects(plan);
  const config: KernelConfig = {
    ...planSettings(plan, effects),
    model: durableModel({
      plan,
      runId,
      nextCall: calls.next,
      currentTurn: () => session.current?.turn ?? 0,
      requests: session.requests,
      inlineRequests: session.input.inlineRequests === true,
      streamLive: streamsLive(plan),
      recorded: (at) => session.visibility.noteRecordedTime(at),
      // Readers describe the session for heartbeat output only while such a call is in flight; Redis output they read
      // elsewhere.
      ...((plan.liveOutput ?? "temporal") === "temporal" ? { liveCalls: session.stream } : {}),
    }),
    tools: durableTools(plan, runId, session),
    use: [
      ...skillDiagnostics(plan.skillDiagnostics),
      ...planPermission(plan.permission, approver, false),
      ...durableCompaction({ session, plan, runId, modelCalls: calls.count }),
      ...userMiddleware(session, plan),
      turnTracker(session.current!),
    ],
    approval: approver,
    effects,
    input: durableInput(host, plan.permission),
    // Background work in durable runs is child workflows (a delegation with run_in_background); tools that run as
    // activities get no registry. Detached groups go to the session's registry and outlive the run.
    background: true,
    detachedTasks: session.detachedTasksFor(plan),
    awaitBackgroundStop,
    // A tool's `ctx.fork` starts a child session; a child (a fork or a subagent) starts none (one level).
    ...(session.input.task ? {} : { forkRunner: durableForkRunner(session, plan) }),
    ...budgetOf(plan, session),
    ports: workflowPorts,
  };
  return config;
}

export /** Passthrough codecs stream the model's text as it comes; buffered codecs show only the decoded answer. */
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
      session.current?.fail(error);
    },
  };
}

/** The run's budget, counting what the session spent before it; the price also prices the session's status. */
function budgetOf(plan: AgentPlan, session: SessionState): Pick<KernelConfig, "budget"> {
  const budget = planBudget(plan, session.usage);
  session.price = budget?.price;
  return budget ? { budget } : {};
}

/** The agent's own middleware; a fork's session runs it without `beforeAgent` hooks (their effects are in its seed). */
function userMiddleware(session: SessionState, plan: AgentPlan): Middleware[] {
  const use = durableUse(plan);
  return session.input.task?.fork ? use.map(withoutStartHook) : use;
}
