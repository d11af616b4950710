import type { McpServerConfig } from "../plan/mcp-servers.js";
import type { McpToolInfo } from "../contract/mcp-tool-info.js";
import type { AbortSignalLike } from "../kernel/vocabulary/ports.js";
import { isTimeout, timeoutText, type McpConnectionPool } from "./mcp-connection-pool.js";

/** The most pages of a tool listing read (a server that never stops paging is cut off here). */
const MAX_PAGES = 100;

/**
 * Every tool a server lists (all pages), reduced to what the runtime records: name, title, description, input
 * schema and annotations. Connecting and listing share one deadline (`listTimeoutMs`) and go through the server's
 * breaker: refused at once while it is open (`McpServerUnavailableError`), one attempt shared by concurrent callers.
 */
export async function listMcpServerTools(
  pool: McpConnectionPool,
  server: string,
  config: McpServerConfig,
  signal: AbortSignalLike,
): Promise<McpToolInfo[]> {
  return pool.breakers.listing(server, config, signal, () => listWithin(pool, server, config));
}

/** One attempt, within the deadline; a connection that fails while listing is dropped from the pool. */
async function listWithin(
  pool: McpConnectionPool,
  server: string,
  config: McpServerConfig,
): Promise<McpToolInfo[]> {
  const deadlineMs = pool.deadlineMs(config);
  const deadline = Date.now() + deadlineMs;
  const connection = await pool.connection(server, config);
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const listed = await connection.client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: Math.max(1, deadline - Date.now()),
      });
      tools.push(...listed.tools.map(toolInfo));
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
  } catch (error) {
    await pool.discard(config, connection);
    if (await isTimeout(error)) throw new Error(`${timeoutText(deadlineMs)}: no answer to tools/list`);
    throw error;
  }
  return tools;
}

function toolInfo(tool: McpToolInfo): McpToolInfo {
  const info: McpToolInfo = { name: tool.name, inputSchema: tool.inputSchema };
  if (tool.title !== undefined) info.title = tool.title;
  if (tool.description !== undefined) info.description = tool.description;
  if (tool.annotations !== undefined) info.annotations = { ...tool.annotations };
  return info;
}
