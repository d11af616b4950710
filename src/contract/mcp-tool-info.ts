/** What MCP says about a tool, as the server lists it (the parts this runtime uses). */
export interface McpToolInfo {
  name: string;
  description?: string;
  title?: string;
  inputSchema: Record<string, unknown>;
  annotations?: {
    readOnlyHint?: boolean;
    idempotentHint?: boolean;
    destructiveHint?: boolean;
    openWorldHint?: boolean;
    title?: string;
  };
}
