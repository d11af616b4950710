import { isCancellation, proxyActivities } from "@temporalio/workflow";
import type { AgentActivities, ListMcpToolsOutput } from "../../contract/activity-types.js";
import type { AgentPlan, DurableToolPlan } from "../../contract/agent-plan.js";
import type { McpServerUnavailable } from "../../contract/mcp-server-unavailable.js";
import { describeMcpUnavailable, mcpUnavailableDiagnostic } from "../../plan/mcp-messages.js";
import type { AgentEvent } from "../../kernel/vocabulary/events.js";
import { errorMessage } from "../../kernel/vocabulary/errors.js";
import { mcpListActivityOptions } from "./activity-options.js";
import { applicationCause } from "./failure-cause.js";

/** The plan with its MCP servers' tools, and the servers it goes without (as their breakers stood). */
export interface McpListing {
  plan: AgentPlan;
  unavailable: McpServerUnavailable[];
}

/**
 * The plan with its MCP servers' tools added, each server listed by one `listMcpTools` activity whose recorded
 * listing is the run's tool list from then on. A server the worker reports unavailable (its breaker open, or it
 * missed its deadline), or a tool whose name the agent already uses, is left out with a `diagnostic`; the run goes on.
 */
export async function withMcpTools(
  plan: AgentPlan,
  publish: (event: AgentEvent) => void,
): Promise<McpListing> {
  const servers = plan.mcpServers ?? [];
  if (servers.length === 0) return { plan, unavailable: [] };
  const listed = await Promise.all(servers.map((server) => listServer(plan.name, server, publish)));
  const unavailable = listed.flatMap((result) => ("unavailable" in result ? [result.unavailable] : []));
  const tools = listed.flatMap((result) => ("tools" in result ? result.tools : []));
  return { plan: { ...plan, tools: mergeTools(plan.tools, tools, publish) }, unavailable };
}

/** The plan with tools listed earlier in the run (carried across continue-as-new) in place of a new listing. */
export function withListedTools(plan: AgentPlan, listed: readonly DurableToolPlan[]): AgentPlan {
  return { ...plan, tools: mergeTools(plan.tools, listed, () => undefined) };
}

/** The MCP tools of a plan whose listing `withMcpTools` added: what a paused run carries to its next execution. */
export function listedMcpTools(plan: AgentPlan): DurableToolPlan[] {
  return plan.tools.filter((tool) => tool.mcp !== undefined);
}

async function listServer(
  agent: string,
  server: string,
  publish: (event: AgentEvent) => void,
): Promise<ListMcpToolsOutput> {
  const { listMcpTools } = proxyActivities<AgentActivities>(mcpListActivityOptions(server));
  try {
    const result = await listMcpTools({ agent, server });
    if ("unavailable" in result)
      publish(mcpUnavailableDiagnostic(server, describeMcpUnavailable(result.unavailable)));
    return result;
  } catch (error) {
    if (isCancellation(error)) throw error;
    publish(mcpUnavailableDiagnostic(server, applicationCause(error)?.message ?? errorMessage(error)));
    return { tools: [] };
  }
}

function mergeTools(
  own: readonly DurableToolPlan[],
  listed: readonly DurableToolPlan[],
  publish: (event: AgentEvent) => void,
): DurableToolPlan[] {
  const names = new Set(own.map((tool) => tool.name));
  const tools = [...own];
  for (const tool of listed) {
    if (names.has(tool.name)) {
      publish({
        type: "diagnostic",
        level: "warning",
        code: "tool_name_taken",
        message: `MCP tool '${tool.name}' was left out: the agent already has a tool of that name`,
      });
      continue;
    }
    names.add(tool.name);
    tools.push(tool);
  }
  return tools;
}
