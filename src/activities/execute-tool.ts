import { ApplicationFailure } from "@temporalio/common";
import { Context } from "@temporalio/activity";
import { FAILURE_TYPES, type ExecuteToolInput, type ExecuteToolOutput } from "../common/activity-types.js";
import { invokeTool } from "../kernel/tool-exec.js";
import type { AnyTool, ToolContext } from "../kernel/tools.js";
import { RegistryLookupError, type AgentRegistry } from "./agent-registry.js";
import { startHeartbeatPulse } from "./heartbeat-pulse.js";
import { SecretScrubber } from "../common/scrub-secrets.js";
import { toolEventRelay, type ToolEventRelay } from "./tool-event-relay.js";
import { toolFork } from "./tool-fork.js";

/**
 * The `executeTool` activity: validates the input with the tool's zod schema and runs the implementation
 * registered on this worker. The tool's own errors are results for the model, not activity failures. Events the
 * tool emits go to the session live and are stored before the activity completes (docs/decisions/0007).
 */
export function createExecuteTool(registry: AgentRegistry, scrubber = new SecretScrubber()) {
  return async function executeTool(input: ExecuteToolInput): Promise<ExecuteToolOutput> {
    const stop = startHeartbeatPulse();
    const events = toolEventRelay(input, scrubber);
    try {
      const tool = lookupTool(registry, input);
      const result = await invokeTool(tool, input.call, toolContext(input, tool, scrubber, events));
      // Stored before the workflow learns the call ended, so readers see them before its tool_call_end.
      await events.end();
      // Results and errors are recorded in history and shown as events: no secret goes with them.
      const content = scrubber.scrub(result.content);
      return result.isError ? { content, isError: true } : { content };
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
    // A timed-out attempt's last heartbeat details go into history.
    heartbeat: (details) => context.heartbeat(scrubber.scrubValue(details)),
  };
  if (!input.noFork) ctx.fork = toolFork(input, context);
  if (tool.retry === "idempotent")
    ctx.idempotencyKey = `${info.workflowExecution?.workflowId ?? ""}:${info.activityId}`;
  return ctx;
}
