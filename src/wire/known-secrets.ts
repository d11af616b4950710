import { isHttpServer, type McpServerConfig } from "../plan/mcp-servers.js";

/** The secrets scrubbed by default: the API keys in an environment (the process's, read by the caller). */
export function environmentSecrets(env: Record<string, string | undefined>): (string | undefined)[] {
  return [env.OPENAI_API_KEY, env.TEMPORAL_API_KEY];
}

/**
 * The secrets in MCP server entries: every header value (and the credential of a `<scheme> <credential>` one, such
 * as `Bearer <token>`) and every environment value of a stdio server.
 */
export function mcpServerSecrets(servers: Iterable<McpServerConfig>): string[] {
  const secrets: string[] = [];
  for (const server of servers) {
    const values = Object.values((isHttpServer(server) ? server.headers : server.env) ?? {});
    for (const value of values) {
      secrets.push(value);
      // A gateway or server may echo the token alone, without its scheme.
      const credential = /^[A-Za-z-]+\s+(\S+)$/.exec(value.trim())?.[1];
      if (credential) secrets.push(credential);
    }
  }
  return secrets;
}
