import { assertInstalled, importOptional } from "../runtime/optional-package.js";

/** The parts of `@modelcontextprotocol/sdk` (an optional peer dependency) the MCP tools use. */
export type McpSdk = Awaited<ReturnType<typeof importMcpSdk>>;

async function importMcpSdk() {
  const [client, stdio, http, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
  };
}

const FEATURE = "MCP servers (mcpServers)";
let loading: Promise<McpSdk> | undefined;

/** The MCP SDK, loaded on first use; fails with one line naming the package when it is not installed. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= importOptional(FEATURE, ["@modelcontextprotocol/sdk"], importMcpSdk);
  // A failed load is not kept: installing the package while the process runs is not expected, but costs nothing.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Fails at once, naming the package to install, when agents have MCP servers and the SDK is not installed. */
export function assertMcpInstalled(): void {
  assertInstalled(FEATURE, ["@modelcontextprotocol/sdk"]);
}
