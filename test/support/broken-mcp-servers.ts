import { createServer, type IncomingMessage, type Server } from "node:http";
import type { McpHttpServer, McpServerOptions, McpStdioServer } from "../../src/plan/mcp-servers.js";
import { startedPids } from "./mcp-servers.js";

/** A stdio "server" that logs its start to `$1`, prints non-JSON lines on stdout and never answers a request. */
const GARBAGE = `
require("node:fs").appendFileSync(process.argv[1], process.pid + "\\n");
setInterval(() => process.stdout.write("this is not JSON-RPC\\n"), 100);
process.stdin.resume();
`;

/** A stdio MCP entry that starts and prints garbage forever; each start appends a line to `startsFile`. */
export function garbageServer(startsFile: string, options: McpServerOptions = {}): McpStdioServer {
  return { command: process.execPath, args: ["-e", GARBAGE, startsFile], ...options };
}

/** How many times a `startsFile` says its server was started. */
export function starts(startsFile: string): number {
  return startedPids(startsFile).length;
}

/** An HTTP server that accepts every request and never answers; it counts the requests. */
export interface SilentServer {
  config(options?: McpServerOptions): McpHttpServer;
  /** `initialize` requests received so far: one per connection attempt. */
  initializes(): number;
  stop(): Promise<void>;
}

/** Starts a silent HTTP server on a free port of 127.0.0.1. */
export async function startSilentServer(): Promise<SilentServer> {
  const held: IncomingMessage[] = [];
  let initializes = 0;
  const server: Server = createServer((request) => {
    held.push(request);
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      if (body.includes('"method":"initialize"')) initializes++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    config: (options = {}) => ({ url: `http://127.0.0.1:${port}/mcp`, ...options }),
    initializes: () => initializes,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
