import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { isListDeadline, MAX_MCP_LIST_TIMEOUT_MS, type McpServerConfig } from "../plan/mcp-servers.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import { stableStringify } from "../kernel/hash/stable-stringify.js";
import { mcpTransport } from "./mcp-transport.js";
import { loadMcpSdk } from "./mcp-sdk.js";
import { McpBreakers, type McpBreakerOptions } from "./mcp-breakers.js";

/** The name and version this runtime gives MCP servers as their client. */
const CLIENT_INFO = { name: "lite-agent-temporal", version: "1" };

/** What the SDK's streamable HTTP transport reports once it stops trying to resume a broken stream. */
const GAVE_UP_RECONNECTING = /^Maximum reconnection attempts \(\d+\) exceeded/;

/** A live connection to one server. */
export interface McpConnection {
  readonly client: Client;
  /** The end of the server's stderr (stdio servers), for error messages. */
  stderrTail(): string;
}

/** Default deadline to start or reach a server and have its tool list (`listTimeoutMs`). */
export const DEFAULT_MCP_LIST_TIMEOUT_MS = 15_000;

/** Options of a pool (`createWorker({ mcp })`): the listing deadline and the breakers' windows. */
export interface McpPoolOptions extends McpBreakerOptions {
  /** Deadline to connect (start the server, `initialize`) and list its tools, in ms; a server's own overrides it. */
  listTimeoutMs?: number;
}

/** A server could not be started or reached. */
export class McpConnectError extends Error {
  constructor(server: string, cause: unknown, stderr: string) {
    super(
      `MCP server '${server}' could not be reached: ${errorMessage(cause)}` +
        (stderr ? ` (its stderr ends: ${stderr.slice(-500)})` : ""),
    );
    this.name = "McpConnectError";
  }
}

/**
 * Connections to MCP servers, one per server entry (keyed by its whole configuration), opened on first use. A
 * connection whose server has gone (the process exited, the transport closed) leaves the pool, so the next use
 * connects again. `close()` closes every connection, ending the stdio servers' processes.
 */
export class McpConnectionPool {
  private readonly connections = new Map<string, Promise<McpConnection>>();
  private closed = false;
  /** The circuit breakers of this pool's servers. */
  readonly breakers: McpBreakers;
  private readonly listTimeoutMs: number;

  constructor(options: McpPoolOptions = {}) {
    this.breakers = new McpBreakers(options);
    this.listTimeoutMs = options.listTimeoutMs ?? DEFAULT_MCP_LIST_TIMEOUT_MS;
    if (!isListDeadline(this.listTimeoutMs))
      throw new TypeError(`mcp.listTimeoutMs must be a number of ms from 1 to ${MAX_MCP_LIST_TIMEOUT_MS}`);
  }

  /** The deadline to connect to a server and list its tools: its own `listTimeoutMs`, else the pool's. */
  deadlineMs(config: McpServerConfig): number {
    return config.listTimeoutMs ?? this.listTimeoutMs;
  }

  /** The connection to a server, connecting first when there is none. */
  connection(server: string, config: McpServerConfig): Promise<McpConnection> {
    if (this.closed)
      return Promise.reject(new Error(`MCP server '${server}': the connection pool is closed`));
    const key = stableStringify(config);
    let connection = this.connections.get(key);
    if (!connection) {
      connection = this.connect(server, key, config);
      this.connections.set(key, connection);
      // A failed connect leaves room for the next attempt.
      connection.catch(() => this.forget(key, connection!));
    }
    return connection;
  }

  /** Drops a connection that failed (and closes it), so the next use connects again. */
  async discard(config: McpServerConfig, connection: McpConnection): Promise<void> {
    await this.dropIfCurrent(stableStringify(config), connection);
    await connection.client.close().catch(() => undefined);
  }

  /** Closes every connection (stdio servers are stopped); later uses are refused. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const open = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(
      open.map(async (pending) => {
        const connection = await pending.catch(() => undefined);
        await connection?.client.close().catch(() => undefined);
      }),
    );
  }

  private async connect(server: string, key: string, config: McpServerConfig): Promise<McpConnection> {
    const { transport, stderrTail } = await mcpTransport(config);
    const client = new (await loadMcpSdk()).Client(CLIENT_INFO);
    const connection: McpConnection = { client, stderrTail };
    // The server went away: the next use gets a new connection.
    client.onclose = () => void this.dropIfCurrent(key, connection);
    // An HTTP stream the SDK could not resume: closing rejects the calls waiting on it (as a stdio server's exit
    // does) instead of leaving them to their timeout.
    client.onerror = (error) => {
      if (GAVE_UP_RECONNECTING.test(error.message)) void client.close().catch(() => undefined);
    };
    try {
      // The connect deadline bounds `initialize`: a server that never answers costs this, not the SDK's 60 s.
      await client.connect(transport, { timeout: this.deadlineMs(config) });
    } catch (error) {
      await client.close().catch(() => undefined);
      const cause = (await isTimeout(error))
        ? `${timeoutText(this.deadlineMs(config))}: no answer to initialize`
        : error;
      throw new McpConnectError(server, cause, stderrTail());
    }
    return connection;
  }

  /** Removes the pool's entry for `key` if it is still this connection (not a newer one). */
  private async dropIfCurrent(key: string, connection: McpConnection): Promise<void> {
    const current = this.connections.get(key);
    if (
      current &&
      (await current.catch(() => undefined)) === connection &&
      this.connections.get(key) === current
    )
      this.connections.delete(key);
  }

  private forget(key: string, connection: Promise<McpConnection>): void {
    if (this.connections.get(key) === connection) this.connections.delete(key);
  }
}

/** True for the SDK's request timeout. */
export async function isTimeout(error: unknown): Promise<boolean> {
  const { ErrorCode, McpError } = await loadMcpSdk();
  return error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number);
}

/** `timeout after 15 s`. */
export function timeoutText(ms: number): string {
  return `timeout after ${Math.round(ms / 100) / 10} s`;
}
