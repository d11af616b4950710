import type { AgentEvent } from "../kernel/vocabulary/events.js";
import type { McpServerUnavailable } from "../contract/mcp-server-unavailable.js";

/** The `diagnostic` code of a server whose tools could not be listed for a run. */
export const MCP_UNAVAILABLE_CODE = "mcp_server_unavailable";

/**
 * What the model reads when an at-most-once MCP call was cut by its server's end: the call is not repeated, since
 * it may have taken effect. The same words in both drivers.
 */
export function mcpCallLostContent(lost: string): string {
  return (
    `Error: ${lost}. The call was not repeated, as the server does not mark the tool read-only or idempotent: ` +
    "it may or may not have taken effect."
  );
}

/** The `diagnostic` of a run that goes on without a server's tools, because listing them failed. */
export function mcpUnavailableDiagnostic(server: string, reason: string): AgentEvent {
  return {
    type: "diagnostic",
    level: "error",
    code: MCP_UNAVAILABLE_CODE,
    message: `the tools of MCP server '${server}' are not available to this run: ${reason}`,
  };
}

/** `unavailable (breaker open until <ISO time>, last error: …)`: how diagnostics, errors and the status say it. */
export function describeMcpUnavailable(
  unavailable: Pick<McpServerUnavailable, "breaker" | "retryAt" | "lastError">,
): string {
  const when =
    unavailable.breaker === "open"
      ? // eslint-disable-next-line no-restricted-syntax -- formats a recorded timestamp
        `open until ${new Date(unavailable.retryAt).toISOString()}`
      : "half-open, its probe under way";
  return `unavailable (breaker ${when}, last error: ${unavailable.lastError})`;
}
