/**
 * An MCP server whose tools a run went without, as the worker's circuit breaker for it stood: recorded by the
 * `listMcpTools` activity, kept in the session status (`mcpUnavailable`) as of the last run.
 */
export interface McpServerUnavailable {
  server: string;
  /** `open`: refused until `retryAt`; `half_open`: a probe was under way (or just failed to be one). */
  breaker: "open" | "half_open";
  /** When the worker lets the next attempt through (ms since the epoch, the worker's clock). */
  retryAt: number;
  /** The error of the last attempt (scrubbed). */
  lastError: string;
  /** Failed attempts in a row. */
  failures: number;
}
