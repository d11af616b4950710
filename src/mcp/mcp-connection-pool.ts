import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { McpServerConfig } from "../plan/mcp-servers.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import { stableStringify } from "../kernel/hash/stable-stringify.js";
import { mcpTransport } from "./mcp-transport.js";
import { loadMcpSdk } from "./mcp-sdk.js";

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
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpConnectError(server, error, stderrTail());
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
