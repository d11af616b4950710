import type { McpServerConfig } from "../plan/mcp-servers.js";
import type { McpToolInfo } from "../contract/mcp-tool-info.js";
import type { AbortSignalLike } from "../kernel/vocabulary/ports.js";
import { abortSignalOf } from "./mcp-call.js";
import type { McpConnectionPool } from "./mcp-connection-pool.js";

/** The most pages of a tool listing read (a server that never stops paging is cut off here). */
const MAX_PAGES = 100;

/** Timeout of one `tools/list` request. */
const LIST_TIMEOUT_MS = 30_000;

/**
 * Every tool a server lists (all pages), reduced to what the runtime records: name, title, description, input
 * schema and annotations. A connection that fails while listing is dropped from the pool.
 */
export async function listMcpServerTools(
  pool: McpConnectionPool,
  server: string,
  config: McpServerConfig,
  signal: AbortSignalLike,
): Promise<McpToolInfo[]> {
  const connection = await pool.connection(server, config);
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const listed = await connection.client.listTools(cursor === undefined ? {} : { cursor }, {
        signal: abortSignalOf(signal),
        timeout: LIST_TIMEOUT_MS,
      });
      tools.push(...listed.tools.map(toolInfo));
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
  } catch (error) {
    await pool.discard(config, connection);
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
