import { proxyActivities, isCancellation } from "@temporalio/workflow";
import { z } from "zod";
import type { AgentActivities, ExecuteToolOutput } from "../../contract/activity-types.js";
import { isToolEventBatch } from "../../wire/tool-events.js";
import { FAILURE_TYPES } from "../../contract/activity-types.js";
import type { AgentPlan, DurableToolPlan } from "../../contract/agent-plan.js";
import { interruptedToolContent } from "../../kernel/checkpoint/crash-recovery.js";
import { mcpCallLostContent } from "../../plan/mcp-messages.js";
import { AbortError, errorMessage } from "../../kernel/vocabulary/errors.js";
import type { Tool, ToolContext, ToolOutput } from "../../kernel/vocabulary/tools.js";
import { toolActivityOptions } from "./activity-options.js";
import { Later } from "../../kernel/coroutine/later.js";
import { idDigest } from "../../kernel/hash/index.js";
import { ASK_USER_TOOL, askUserTool } from "../../kernel/builtin-tools/ask-user-tool.js";
import { applicationCause, isActivityTimeout } from "./failure-cause.js";
import { durableDelegateTool, isDelegateTool } from "../children/durable-delegate.js";
import type { SessionState } from "../session/session-state.js";

/**
 * The plan's tools as kernel tools whose every call is one `executeTool` activity. Arguments are validated
 * against the zod schema on the worker, where the implementation lives; here they pass through unchanged.
 */
export function durableTools(plan: AgentPlan, runId: string, session: SessionState): Tool[] {
  // Runtime tools (ask_user, delegation) run in the workflow itself: waiting for a person or a child needs no
  // worker. A subagent's session gets no delegation tool (one level of subagents, as the seed).
  const tools = sessionTools(plan, session);
  return tools.map((tool) => {
    if (tool.builtin === ASK_USER_TOOL) return askUserTool();
    if (isDelegateTool(tool)) return durableDelegateTool(session, tool) as Tool;
    return durableTool(plan, tool, runId, session);
  });
}

/** The plan's tools this session offers: a subagent's none that delegate, a fork's only those it was given. */
function sessionTools(plan: AgentPlan, session: SessionState): DurableToolPlan[] {
  const task = session.input.task;
  if (!task) return plan.tools;
  const only = task.fork?.tools;
  return plan.tools.filter((tool) => !isDelegateTool(tool) && (!only || only.includes(tool.name)));
}

function durableTool(plan: AgentPlan, tool: DurableToolPlan, runId: string, session: SessionState): Tool {
  return {
    name: tool.name,
    description: tool.description,
    schema: z.unknown(),
    parameters: tool.parameters,
    retry: tool.retry,
    timeoutMs: tool.timeoutMs,
    execute: (input, ctx) => runToolActivity(plan, tool, runId, input, ctx, session),
  };
}

/**
 * One tool call as one activity. Not async: the activity's promise and the one `then` the run puts on it, where an
 * async function and its `await` made two, each a stack trace for the SDK (docs/decisions/0014).
 */
function runToolActivity(
  plan: AgentPlan,
  tool: DurableToolPlan,
  runId: string,
  input: unknown,
  ctx: ToolContext,
  session: SessionState,
): Promise<ToolOutput> {
  const call = { id: ctx.call?.id ?? "", name: tool.name, input };
  const turn = ctx.turn ?? 0;
  // Stable per call: the idempotency key of an idempotent tool is the workflow id plus this id. The call id comes
  // from the model, so only its digest goes into the id the server keeps in plain text.
  const activityId = `tool:${runId}:${turn}:${idDigest(call.id)}`;
  const activities = proxyActivities<AgentActivities>({
    ...toolActivityOptions(tool, activityId),
    summary: toolSummary(tool.name, input),
  });
  const request = { agent: plan.name, sessionId: ctx.sessionId, runId, turn, call };
  // While the call runs, its `ctx.fork` (on the worker, through `startFork`) starts forks here. A fork's or a
  // subagent's tools get none (one level, as the seed).
  const forks = session.current?.toolForks;
  const fork = session.input.task ? undefined : ctx.fork;
  if (fork && !tool.mcp) forks?.set(call.id, fork);
  // The implementation may emit events (`ctx.emit`) in the activity's heartbeats while it runs; an MCP tool can't.
  const closeLiveCall = tool.mcp ? undefined : session.stream.openLiveCall();
  // Takes the call's outcome, then ends it; a call ends after its forks: when its run was cancelled, once they were
  // (their children stopped too).
  const end = (outcome: () => ToolOutput): ToolOutput | Promise<ToolOutput> => {
    let settled: { output: ToolOutput } | { error: unknown };
    try {
      settled = { output: outcome() };
    } catch (error) {
      settled = { error };
    }
    closeLiveCall?.();
    forks?.delete(call.id);
    const result = (): ToolOutput => {
      if ("error" in settled) throw settled.error;
      return settled.output;
    };
    const started = fork ? forksOf(session, call.id) : undefined;
    return started ? started.then(result) : result();
  };
  let activity: Promise<ExecuteToolOutput>;
  try {
    // An MCP tool's calls go to its server over the worker's connection; the others to their implementation.
    activity = tool.mcp
      ? activities.callMcpTool({ ...request, server: tool.mcp.server, tool: tool.mcp.tool })
      : activities.executeTool(fork ? request : { ...request, noFork: true });
  } catch (error) {
    activity = Promise.reject(error);
  }
  // A `Later`: the kernel's steps after the call fold into this one `then` on the activity (docs/decisions/0014).
  return new Later(
    activity,
    (output: ExecuteToolOutput) => end(() => keepToolEvents(session, output)),
    (error: unknown) =>
      end(() => {
        if (isCancellation(error)) throw new AbortError(`tool ${tool.name} cancelled`);
        return failureResult(tool, error, call.id, turn, ctx);
      }),
  );
}

/**
 * The call's output for the run, after the session kept the last window of the tool's events for its readers
 * (memory only, no command), before the run logs the call's end (docs/decisions/0021).
 */
function keepToolEvents(session: SessionState, { toolEvents, ...output }: ExecuteToolOutput): ToolOutput {
  if (isToolEventBatch(toolEvents)) session.stream.storeToolEvents(toolEvents);
  return output;
}

/** Settles when every fork the call started has ended; undefined (no promise) when it started none. */
function forksOf(session: SessionState, callId: string): Promise<unknown> | undefined {
  const started = [...(session.current?.forks ?? [])].filter(([key]) => key.startsWith(`${callId}/`));
  return started.length > 0 ? Promise.allSettled(started.map(([, fork]) => fork)) : undefined;
}

/** The one-line summary the Temporal UI shows for a tool activity, e.g. `tool refund {"order":42}`. */
function toolSummary(name: string, input: unknown): string {
  const args = JSON.stringify(input) ?? "";
  return `tool ${name} ${args.length > 80 ? `${args.slice(0, 79)}…` : args}`;
}

/** What the model sees when the activity itself failed (the tool's own errors arrive as normal results). */
function failureResult(
  tool: DurableToolPlan,
  error: unknown,
  id: string,
  turn: number,
  ctx: ToolContext,
): ToolOutput {
  const cause = applicationCause(error);
  if (cause?.type === FAILURE_TYPES.toolNotFound)
    return { content: `Error: ${cause.message}`, isError: true };
  // The MCP server ended mid-call and the tool may not run twice: the model is told, the call is not repeated.
  if (cause?.type === FAILURE_TYPES.mcpConnectionLost && tool.retry === "at-most-once")
    return { content: mcpCallLostContent(cause.message), isError: true };
  if (tool.retry === "at-most-once" && isActivityTimeout(error)) {
    // The worker died (or hung) mid-call: the tool may have had side effects, so it is never run again.
    ctx.emit({ type: "tool_recovered", id, name: tool.name, turn });
    return { content: interruptedToolContent(tool.name), isError: true };
  }
  const message = cause?.message ?? errorMessage(error);
  return { content: `Error: ${message}`, isError: true };
}
