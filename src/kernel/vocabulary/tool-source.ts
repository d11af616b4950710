import { errorMessage } from "./errors.js";
import type { AgentEvent } from "./events.js";
import type { AbortSignalLike } from "./ports.js";
import type { AnyTool } from "./tools.js";

/** What a tool source gets when a run asks it for its tools. */
export interface ToolSourceContext {
  sessionId: string;
  signal: AbortSignalLike;
  /** Reports what the source could not list (a `diagnostic`), so the run goes on with the rest. */
  emit(event: AgentEvent): void;
}

/**
 * Tools known only at run time (an MCP server's): a run asks each source once, before its first model call, and
 * uses the tools it lists for the whole run. `close()` releases what the source holds (connections, child
 * processes); the in-process agent's `close()` calls it.
 */
export interface ToolSource {
  tools(ctx: ToolSourceContext): Promise<AnyTool[]>;
  close?(): Promise<void>;
}

/**
 * The tools of every source, after the configured ones. A source that fails, or lists a name already taken, costs
 * only its own tools: a `diagnostic` says which.
 */
export async function withSourceTools(
  configured: readonly AnyTool[],
  sources: readonly ToolSource[],
  ctx: ToolSourceContext,
): Promise<AnyTool[]> {
  const listed = await Promise.all(sources.map((source) => listSource(source, ctx)));
  const tools = [...configured];
  const names = new Set(tools.map((tool) => tool.name));
  for (const tool of listed.flat()) {
    if (names.has(tool.name)) {
      ctx.emit(duplicateDiagnostic(tool.name));
      continue;
    }
    names.add(tool.name);
    tools.push(tool);
  }
  return tools;
}

async function listSource(source: ToolSource, ctx: ToolSourceContext): Promise<AnyTool[]> {
  try {
    return await source.tools(ctx);
  } catch (error) {
    ctx.emit({
      type: "diagnostic",
      level: "error",
      code: "tool_source_failed",
      message: `a tool source could not list its tools: ${errorMessage(error)}`,
    });
    return [];
  }
}

function duplicateDiagnostic(name: string): AgentEvent {
  return {
    type: "diagnostic",
    level: "warning",
    code: "tool_name_taken",
    message: `a listed tool named '${name}' was left out: the agent already has a tool of that name`,
  };
}
