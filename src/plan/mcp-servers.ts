import { nonPlainPath } from "../kernel/vocabulary/plain-data.js";

/** What every MCP server entry may say besides how to reach the server. */
export interface McpServerOptions {
  /**
   * The server's tools the agent may use, by their MCP names (globs allowed: `read_*`); all of them when omitted.
   * The seed's ACL: a tool outside the list is neither shown to the model nor callable.
   */
  allow?: string[];
  /**
   * Whether a tool's `readOnlyHint`/`idempotentHint` annotations make it idempotent (retried on a fresh connection
   * after the server died mid-call). Default true; false makes every tool of the server at-most-once, for a server
   * whose hints you do not trust (MCP annotations are hints, not guarantees).
   */
  trustAnnotations?: boolean;
  /** Timeout of one tool call, in ms; default the agent's `durable.toolTimeoutMs` (5 minutes). */
  timeoutMs?: number;
  /**
   * Deadline to start or reach the server and list its tools, in ms; default the worker's `mcp.listTimeoutMs`
   * (15 s). A server that misses it opens its circuit breaker (docs/operations.md, "MCP servers").
   */
  listTimeoutMs?: number;
}

/** An MCP server the worker (or the in-process agent) starts as a child process and talks to over stdio. */
export interface McpStdioServer extends McpServerOptions {
  command: string;
  args?: string[];
  /** Added to a minimal inherited environment (HOME, PATH, USER, ...), as the MCP SDK does. */
  env?: Record<string, string>;
  cwd?: string;
}

/** An MCP server reached over streamable HTTP. */
export interface McpHttpServer extends McpServerOptions {
  url: string;
  /** Sent with every request (an `Authorization` header, say). */
  headers?: Record<string, string>;
}

/** How to reach one MCP server: plain data, so it can be checked, compared and keyed (the worker's pool). */
export type McpServerConfig = McpStdioServer | McpHttpServer;

/** The longest listing deadline (`listTimeoutMs`): within the listing activity's 120 s start-to-close timeout. */
export const MAX_MCP_LIST_TIMEOUT_MS = 100_000;

/** True for a usable `listTimeoutMs`. */
export function isListDeadline(ms: unknown): boolean {
  return typeof ms === "number" && Number.isFinite(ms) && ms > 0 && ms <= MAX_MCP_LIST_TIMEOUT_MS;
}

/** Server names: letters, digits and `-` (no `_`, so the `__` after the prefix in a tool name is unambiguous). */
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,31}$/;

/** True for a server reached over HTTP. */
export function isHttpServer(config: McpServerConfig): config is McpHttpServer {
  return "url" in config;
}

/** Why an agent's `mcpServers` cannot be used, or undefined when they can. */
export function checkMcpServers(servers: Record<string, McpServerConfig>): string | undefined {
  for (const [name, config] of Object.entries(servers)) {
    const problem = checkServer(name, config);
    if (problem) return `MCP server '${name}' ${problem}`;
  }
  return undefined;
}

function checkServer(name: string, config: McpServerConfig): string | undefined {
  if (!SERVER_NAME.test(name))
    return "has a bad name: use up to 32 letters, digits and '-', starting with a letter or digit";
  if (typeof config !== "object" || config === null) return "must be an object";
  const path = nonPlainPath(config, "config");
  if (path) return `is not plain data at ${path}`;
  const hasUrl = "url" in config;
  const hasCommand = "command" in config;
  if (hasUrl === hasCommand) return "needs exactly one of 'command' (stdio) or 'url' (streamable HTTP)";
  if (hasUrl && !isHttpUrl(config.url))
    return `has a 'url' that is not an http(s) URL: ${String(config.url)}`;
  if (hasCommand && (typeof config.command !== "string" || config.command === ""))
    return "has an empty 'command'";
  if (config.allow !== undefined && !isStringList(config.allow))
    return "has an 'allow' that is not a list of names";
  if (config.timeoutMs !== undefined && !(Number.isFinite(config.timeoutMs) && config.timeoutMs > 0))
    return "has a 'timeoutMs' that is not a positive number";
  if (config.listTimeoutMs !== undefined && !isListDeadline(config.listTimeoutMs))
    return `has a 'listTimeoutMs' that is not a number of ms from 1 to ${MAX_MCP_LIST_TIMEOUT_MS}`;
  return undefined;
}

function isHttpUrl(value: unknown): boolean {
  return typeof value === "string" && /^https?:\/\/[^\s]+$/.test(value);
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string" && item !== "");
}
