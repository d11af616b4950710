import { isCancellation, proxyActivities } from "@temporalio/workflow";
import type { AgentActivities } from "../../contract/activity-types.js";
import type { AgentPlan, DurableToolPlan } from "../../contract/agent-plan.js";
import { mcpUnavailableDiagnostic } from "../../plan/mcp-messages.js";
import type { AgentEvent } from "../../kernel/vocabulary/events.js";
import { errorMessage } from "../../kernel/vocabulary/errors.js";
import { mcpListActivityOptions } from "./activity-options.js";
import { applicationCause } from "./failure-cause.js";

/**
 * The plan with its MCP servers' tools added, each server listed by one `listMcpTools` activity (retried while it
 * starts) whose recorded listing is the run's tool list from then on. An unreachable server, or a tool whose name the
 * agent already uses, is left out with a `diagnostic`; the run goes on.
 */
export async function withMcpTools(
  plan: AgentPlan,
  publish: (event: AgentEvent) => void,
): Promise<AgentPlan> {
  const servers = plan.mcpServers ?? [];
  if (servers.length === 0) return plan;
  const listed = await Promise.all(servers.map((server) => listServer(plan.name, server, publish)));
  return { ...plan, tools: mergeTools(plan.tools, listed.flat(), publish) };
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
): Promise<DurableToolPlan[]> {
  const { listMcpTools } = proxyActivities<AgentActivities>(mcpListActivityOptions(server));
  try {
    return await listMcpTools({ agent, server });
  } catch (error) {
    if (isCancellation(error)) throw error;
    publish(mcpUnavailableDiagnostic(server, applicationCause(error)?.message ?? errorMessage(error)));
    return [];
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
