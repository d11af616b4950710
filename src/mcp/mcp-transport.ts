import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isHttpServer, type McpServerConfig } from "../plan/mcp-servers.js";
import { loadMcpSdk } from "./mcp-sdk.js";

/** How much of a stdio server's stderr is kept, for the error when it fails to start or dies. */
const STDERR_TAIL_CHARS = 2_000;

/** A transport to one server, and the end of what the server wrote to stderr (stdio servers). */
export interface McpTransport {
  transport: Transport;
  stderrTail(): string;
}

/**
 * The SDK's transport for a server entry: a child process over stdio (its stderr kept, not printed), or streamable
 * HTTP with the entry's headers.
 */
export async function mcpTransport(config: McpServerConfig): Promise<McpTransport> {
  const { StdioClientTransport, StreamableHTTPClientTransport } = await loadMcpSdk();
  if (isHttpServer(config)) {
    const requestInit = config.headers ? { headers: config.headers } : undefined;
    return {
      transport: new StreamableHTTPClientTransport(new URL(config.url), requestInit ? { requestInit } : {}),
      stderrTail: () => "",
    };
  }
  const transport = new StdioClientTransport({
    command: config.command,
    ...(config.args ? { args: config.args } : {}),
    ...(config.env ? { env: config.env } : {}),
    ...(config.cwd ? { cwd: config.cwd } : {}),
    stderr: "pipe",
  });
  let tail = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
  });
  return { transport, stderrTail: () => tail.trim() };
}
