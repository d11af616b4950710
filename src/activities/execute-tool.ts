import { ApplicationFailure } from "@temporalio/common";
import { Context } from "@temporalio/activity";
import { FAILURE_TYPES, type ExecuteToolInput, type ExecuteToolOutput } from "../contract/activity-types.js";
import { invokeTool } from "../kernel/phases/tool-exec.js";
import type { AnyTool, ToolContext } from "../kernel/vocabulary/tools.js";
import { RegistryLookupError, type AgentRegistry } from "./agent-registry.js";
import { startHeartbeatPulse } from "./heartbeat-pulse.js";
import { SecretScrubber } from "../wire/scrub-secrets.js";
import { toolEventRelay, type ToolEventRelay } from "./tool-event-relay.js";
import { toolFork } from "./tool-fork.js";
import { noopSandbox } from "../kernel/vocabulary/noop-sandbox.js";

/**
 * The `executeTool` activity: validates the input with the tool's zod schema and runs the registered implementation;
 * the tool's own errors are results for the model. Its events go out live in heartbeats, and the result carries their
 * last window, so the session has them before it logs the call's end (docs/decisions/0021).
 */
export function createExecuteTool(registry: AgentRegistry, scrubber = new SecretScrubber()) {
  return async function executeTool(input: ExecuteToolInput): Promise<ExecuteToolOutput> {
    const events = toolEventRelay(input, scrubber);
    // Each heartbeat's details replace the previous ones: the pulse repeats the window of events.
    const context = Context.current();
    const stop = startHeartbeatPulse(() => context.heartbeat(events.heartbeatDetails()));
    try {
      const tool = lookupTool(registry, input);
      const result = await invokeTool(tool, input.call, toolContext(input, tool, scrubber, events));
      // Results and errors are recorded in history and shown as events: no secret goes with them.
      const content = scrubber.scrub(result.content);
      const output: ExecuteToolOutput = result.isError ? { content, isError: true } : { content };
      // The last heartbeat may not have carried the tail: the session stores it before it logs the call's end.
      const toolEvents = events.last();
      return toolEvents ? { ...output, toolEvents } : output;
    } catch (error) {
      throw scrubber.scrubError(error);
    } finally {
      stop();
    }
  };
}

function lookupTool(registry: AgentRegistry, input: ExecuteToolInput): AnyTool {
  try {
    return registry.tool(input.agent, input.call.name);
  } catch (error) {
    if (error instanceof RegistryLookupError)
      throw ApplicationFailure.nonRetryable(error.message, FAILURE_TYPES.toolNotFound);
    throw error;
  }
}

function toolContext(
  input: ExecuteToolInput,
  tool: AnyTool,
  scrubber: SecretScrubber,
  events: ToolEventRelay,
): ToolContext {
  const context = Context.current();
  const info = context.info;
  const ctx: ToolContext = {
    sessionId: input.sessionId,
    signal: context.cancellationSignal,
    emit: (event) => events.emit(event),
    call: input.call,
    turn: input.turn,
    // Durable agents configure no sandbox: tools see the seed's default.
    sandbox: noopSandbox(),
    // A timed-out attempt's last heartbeat details go into history.
    heartbeat: (details) => context.heartbeat(events.heartbeatDetails(scrubber.scrubValue(details))),
  };
  if (!input.noFork) ctx.fork = toolFork(input, context);
  if (tool.retry === "idempotent")
    ctx.idempotencyKey = `${info.workflowExecution?.workflowId ?? ""}:${info.activityId}`;
  return ctx;
}
