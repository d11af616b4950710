import { Context } from "@temporalio/activity";
import { ApplicationFailure } from "@temporalio/common";
import {
  FAILURE_TYPES,
  type CallMcpToolInput,
  type ExecuteToolOutput,
  type ListMcpToolsInput,
  type ListMcpToolsOutput,
} from "../contract/activity-types.js";
import { isAllowed, mcpToolPlans } from "../plan/mcp-tool-plans.js";
import type { SecretScrubber } from "../wire/scrub-secrets.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import { callMcpTool, McpConnectionLostError } from "../mcp/mcp-call.js";
import type { McpConnectionPool } from "../mcp/mcp-connection-pool.js";
import { listMcpServerTools } from "../mcp/mcp-list.js";
import { McpServerUnavailableError } from "../mcp/mcp-breakers.js";
import { RegistryLookupError, type AgentRegistry } from "./agent-registry.js";
import { startHeartbeatPulse } from "./heartbeat-pulse.js";

/**
 * The `listMcpTools` activity: lists one MCP server's tools over the worker's pooled connection and returns the agent
 * tools they become (allowed ones, named `<server>__<tool>`, with their retry class), which the workflow records. A
 * server that fails or misses its deadline, or whose breaker is open, is returned as unavailable: no retry.
 */
export function createListMcpTools(
  registry: AgentRegistry,
  pool: McpConnectionPool,
  scrubber: SecretScrubber,
) {
  return async function listMcpTools(input: ListMcpToolsInput): Promise<ListMcpToolsOutput> {
    const { config, defaults } = lookupServer(registry, input.agent, input.server);
    const signal = Context.current().cancellationSignal;
    try {
      const listed = await listMcpServerTools(pool, input.server, config, signal);
      return { tools: mcpToolPlans(input.server, config, listed, defaults) };
    } catch (error) {
      if (error instanceof McpServerUnavailableError) {
        const unavailable = error.unavailable();
        return { unavailable: { ...unavailable, lastError: scrubber.scrub(unavailable.lastError) } };
      }
      if (signal.aborted) throw error;
      throw ApplicationFailure.retryable(scrubber.scrub(errorMessage(error)), FAILURE_TYPES.mcpUnavailable);
    }
  };
}

/**
 * The `callMcpTool` activity: calls one MCP tool over the worker's pooled connection (reconnecting if needed); the
 * server's answers, errors included, are results for the model. A connection that breaks mid-call fails the attempt
 * with `LiteAgent.McpConnectionLost`, and the tool's retry class decides whether to try again.
 */
export function createCallMcpTool(
  registry: AgentRegistry,
  pool: McpConnectionPool,
  scrubber: SecretScrubber,
) {
  return async function callMcpToolActivity(input: CallMcpToolInput): Promise<ExecuteToolOutput> {
    const { config, defaults } = lookupServer(registry, input.agent, input.server);
    if (!isAllowed(config, input.tool))
      throw ApplicationFailure.nonRetryable(
        `tool '${input.tool}' of MCP server '${input.server}' is not in the agent's allow list`,
        FAILURE_TYPES.toolNotFound,
      );
    const context = Context.current();
    const stop = startHeartbeatPulse();
    try {
      const output = await callMcpTool(pool, input.server, config, input.tool, input.call.input, {
        signal: context.cancellationSignal,
        timeoutMs: config.timeoutMs ?? defaults.timeoutMs,
        onProgress: () => context.heartbeat(),
      });
      if (typeof output === "string") return { content: scrubber.scrub(output) };
      const content = scrubber.scrub(output.content);
      return output.isError ? { content, isError: true } : { content };
    } catch (error) {
      if (error instanceof McpConnectionLostError)
        throw ApplicationFailure.retryable(scrubber.scrub(error.message), FAILURE_TYPES.mcpConnectionLost);
      if (context.cancellationSignal.aborted) throw error;
      throw ApplicationFailure.retryable(scrubber.scrub(errorMessage(error)), FAILURE_TYPES.mcpUnavailable);
    } finally {
      stop();
    }
  };
}

function lookupServer(registry: AgentRegistry, agent: string, server: string) {
  try {
    return registry.mcpServer(agent, server);
  } catch (error) {
    if (error instanceof RegistryLookupError)
      throw ApplicationFailure.nonRetryable(error.message, FAILURE_TYPES.toolNotFound);
    throw error;
  }
}
