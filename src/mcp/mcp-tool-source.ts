import { z } from "zod";
import type { DurableToolPlan } from "../contract/agent-plan.js";
import { mcpCallLostContent, mcpUnavailableDiagnostic } from "../plan/mcp-messages.js";
import type { McpServerConfig } from "../plan/mcp-servers.js";
import { mcpToolPlans, type McpToolDefaults } from "../plan/mcp-tool-plans.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import type { ToolSource } from "../kernel/vocabulary/tool-source.js";
import type { AnyTool } from "../kernel/vocabulary/tools.js";
import { callMcpTool, McpConnectionLostError } from "./mcp-call.js";
import { McpConnectionPool } from "./mcp-connection-pool.js";
import { listMcpServerTools } from "./mcp-list.js";

/** How often an in-process idempotent call is tried when its server keeps dying mid-call. */
const IDEMPOTENT_ATTEMPTS = 3;

/**
 * The in-process source of an agent's MCP tools: each run lists every server's tools (connecting on first use) and
 * offers the allowed ones as `<server>__<tool>`. The source owns its connections; `close()` ends them (and the stdio
 * servers), and a later run connects again.
 */
export function mcpToolSource(
  servers: Readonly<Record<string, McpServerConfig>>,
  defaults: McpToolDefaults,
): ToolSource {
  let pool = new McpConnectionPool();
  const current = () => pool;
  return {
    async tools(ctx) {
      const lists = await Promise.all(
        Object.entries(servers).map(async ([server, config]) => {
          try {
            const listed = await listMcpServerTools(pool, server, config, ctx.signal);
            return mcpToolPlans(server, config, listed, defaults).map((plan) =>
              localMcpTool(current, config, plan),
            );
          } catch (error) {
            ctx.emit(mcpUnavailableDiagnostic(server, errorMessage(error)));
            return [];
          }
        }),
      );
      return lists.flat();
    },
    async close() {
      const closing = pool;
      pool = new McpConnectionPool();
      await closing.close();
    },
  };
}

/**
 * One MCP tool as an in-process tool. A call cut by the server's end is retried on a fresh connection when the
 * tool is idempotent, and reported (never repeated) when it is at-most-once, as in durable runs.
 */
function localMcpTool(
  pool: () => McpConnectionPool,
  config: McpServerConfig,
  plan: DurableToolPlan,
): AnyTool {
  const { server, tool } = plan.mcp!;
  return {
    name: plan.name,
    description: plan.description,
    // The server validates the arguments against the schema it listed.
    schema: z.unknown(),
    parameters: plan.parameters,
    retry: plan.retry,
    timeoutMs: plan.timeoutMs,
    async execute(input, ctx) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await callMcpTool(pool(), server, config, tool, input, {
            signal: ctx.signal,
            timeoutMs: plan.timeoutMs,
          });
        } catch (error) {
          if (!(error instanceof McpConnectionLostError)) throw error;
          if (plan.retry !== "idempotent")
            return { content: mcpCallLostContent(error.message), isError: true };
          if (attempt >= IDEMPOTENT_ATTEMPTS) throw error;
        }
      }
    },
  };
}
