import type { McpServerConfig } from "../plan/mcp-servers.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import type { AbortSignalLike } from "../kernel/vocabulary/ports.js";
import type { ToolOutput } from "../kernel/vocabulary/tools.js";
import type { McpConnectionPool } from "./mcp-connection-pool.js";
import { mcpResultOutput } from "./mcp-result-output.js";
import { loadMcpSdk } from "./mcp-sdk.js";
import { McpServerUnavailableError } from "./mcp-breakers.js";

/** The connection to a server broke during a call (its process exited, the HTTP stream was cut): the call's fate is unknown. */
export class McpConnectionLostError extends Error {
  constructor(server: string, tool: string, cause: unknown, stderr: string) {
    super(
      `MCP server '${server}' ended during the call to '${tool}' (${errorMessage(cause)})` +
        (stderr ? `; its stderr ends: ${stderr.slice(-300)}` : ""),
    );
    this.name = "McpConnectionLostError";
  }
}

/** What one call needs besides the tool and its arguments. */
export interface McpCallOptions {
  signal: AbortSignalLike;
  timeoutMs: number;
  /** Called on each progress notification of the call (durable runs heartbeat on it). */
  onProgress?(): void;
}

/**
 * Calls one tool of a server over the pool's connection. The server's answers, errors included, are results for
 * the model, and so is a refusal of its open breaker (at once, no timeout); a broken connection drops it from the
 * pool and throws `McpConnectionLostError`, for the caller to report or retry by the tool's class.
 */
export async function callMcpTool(
  pool: McpConnectionPool,
  server: string,
  config: McpServerConfig,
  tool: string,
  args: unknown,
  options: McpCallOptions,
): Promise<ToolOutput> {
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return { content: `Error: the arguments of '${tool}' must be a JSON object`, isError: true };
  const connection = await connectThroughBreaker(pool, server, config);
  if (connection instanceof McpServerUnavailableError)
    return { content: `Error: ${connection.message}`, isError: true };
  const signal = abortSignalOf(options.signal);
  try {
    const result = await connection.client.callTool(
      { name: tool, arguments: args as Record<string, unknown> },
      undefined,
      {
        signal,
        timeout: options.timeoutMs,
        ...(options.onProgress ? { onprogress: () => options.onProgress!() } : {}),
      },
    );
    return mcpResultOutput(result);
  } catch (error) {
    if (signal.aborted) throw error;
    const { ErrorCode, McpError } = await loadMcpSdk();
    if (error instanceof McpError && error.code !== (ErrorCode.ConnectionClosed as number))
      return { content: `Error: ${error.message}`, isError: true };
    await pool.discard(config, connection);
    throw new McpConnectionLostError(server, tool, error, connection.stderrTail());
  }
}

/** The pooled connection, or the breaker's refusal; a failure to connect opens the breaker and is thrown. */
async function connectThroughBreaker(pool: McpConnectionPool, server: string, config: McpServerConfig) {
  try {
    pool.breakers.admit(server, config);
  } catch (error) {
    if (error instanceof McpServerUnavailableError) return error;
    throw error;
  }
  try {
    const connection = await pool.connection(server, config);
    pool.breakers.succeeded(server, config);
    return connection;
  } catch (error) {
    pool.breakers.failed(server, config, error);
    throw error;
  }
}

/** The SDK wants a real AbortSignal; the kernel's may be a lookalike. */
export function abortSignalOf(like: AbortSignalLike): AbortSignal {
  if (like instanceof AbortSignal) return like;
  const controller = new AbortController();
  if (like.aborted) controller.abort(like.reason);
  else like.addEventListener("abort", () => controller.abort(like.reason), { once: true });
  return controller.signal;
}
