import { sha256 } from "../kernel/hash/sha256.js";
import { globMatch } from "../kernel/permission/glob.js";
import type { ToolRetryClass } from "../kernel/vocabulary/tools.js";
import type { DurableToolPlan } from "../contract/agent-plan.js";
import type { McpServerConfig } from "./mcp-servers.js";
import type { McpToolInfo } from "../contract/mcp-tool-info.js";

/** The longest tool name models accept (OpenAI's `^[a-zA-Z0-9_-]{1,64}$`). */
export const MAX_TOOL_NAME_LENGTH = 64;

/** The separator between the server's name and the tool's in an agent tool name: `everything__echo`. */
export const MCP_NAME_SEPARATOR = "__";

/** How long the hash is that keeps a shortened or clashing name unique. */
const HASH_LENGTH = 8;

/** Timeouts an MCP tool gets when its server says none. */
export interface McpToolDefaults {
  timeoutMs: number;
  heartbeatTimeoutMs: number;
}

/**
 * The agent tools of one server's listing: the allowed tools, each named `<server>__<tool>` in the model's tool-name
 * charset, with its retry class from its annotations. Pure, so the in-process driver and the worker name tools
 * alike; sorted by MCP name first, so the same listing always gives the same names.
 */
export function mcpToolPlans(
  server: string,
  config: McpServerConfig,
  tools: readonly McpToolInfo[],
  defaults: McpToolDefaults,
): DurableToolPlan[] {
  const allowed = tools.filter((tool) => isAllowed(config, tool.name));
  const sorted = [...allowed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const taken = new Set<string>();
  return sorted.map((tool) => {
    const name = mcpToolName(server, tool.name, taken);
    taken.add(name);
    const plan: DurableToolPlan = {
      name,
      description: tool.description ?? tool.title ?? `The '${tool.name}' tool of MCP server '${server}'.`,
      parameters: tool.inputSchema,
      retry: mcpRetryClass(config, tool),
      timeoutMs: config.timeoutMs ?? defaults.timeoutMs,
      heartbeatTimeoutMs: defaults.heartbeatTimeoutMs,
      mcp: { server, tool: tool.name },
    };
    if (tool.annotations) plan.mcp!.annotations = tool.annotations;
    return plan;
  });
}

/** Whether the server's `allow` list lets the agent use a tool (every tool when there is no list). */
export function isAllowed(config: McpServerConfig, tool: string): boolean {
  return config.allow === undefined || config.allow.some((pattern) => globMatch(pattern, tool));
}

/**
 * The agent tool name of an MCP tool: `<server>__<tool>`, characters other than letters, digits, `_` and `-` made `_`
 * (`fs`, `read.file` → `fs__read_file`). A name over the limit, or already `taken`, is cut and ends in `_` and a hash
 * of the MCP name.
 */
export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  const prefix = `${server}${MCP_NAME_SEPARATOR}`;
  const body = tool.replace(/[^A-Za-z0-9_-]/g, "_");
  const plain = `${prefix}${body}`;
  if (plain.length <= MAX_TOOL_NAME_LENGTH && !taken.has(plain)) return plain;
  const room = MAX_TOOL_NAME_LENGTH - prefix.length - HASH_LENGTH - 1;
  return `${prefix}${body.slice(0, room)}_${sha256(tool).slice(0, HASH_LENGTH)}`;
}

/**
 * At-most-once unless the server marks the tool read-only or idempotent (and the server's hints are trusted): a
 * call cut by a dead server is then retried on a fresh connection instead of reported.
 */
export function mcpRetryClass(config: McpServerConfig, tool: McpToolInfo): ToolRetryClass {
  if (config.trustAnnotations === false) return "at-most-once";
  const hints = tool.annotations;
  return hints?.readOnlyHint === true || hints?.idempotentHint === true ? "idempotent" : "at-most-once";
}
