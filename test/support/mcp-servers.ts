import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { McpHttpServer, McpServerOptions, McpStdioServer } from "../../src/plan/mcp-servers.js";
import { findFreePort } from "../../src/dev-server/free-port.js";

/** The installed MCP servers' entry points (devDependencies): started with this Node, no `npx`, no network. */
const SERVER_BIN = {
  everything: fileURLToPath(
    new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
  ),
  filesystem: fileURLToPath(
    new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url),
  ),
};

/**
 * `@modelcontextprotocol/server-everything` over stdio. With `pidFile`, the server's process id is appended to the
 * file at each start (a shell that `exec`s the server, so the id is the server's own): a test can count starts and
 * kill exactly that process.
 */
export function everythingServer(options: McpServerOptions & { pidFile?: string } = {}): McpStdioServer {
  const { pidFile, ...rest } = options;
  if (!pidFile) return { command: process.execPath, args: [SERVER_BIN.everything, "stdio"], ...rest };
  return {
    command: "sh",
    args: ["-c", 'echo $$ >> "$0"; exec "$1" "$2" stdio', pidFile, process.execPath, SERVER_BIN.everything],
    ...rest,
  };
}

/** `@modelcontextprotocol/server-filesystem` over stdio, allowed into `folder` only. */
export function filesystemServer(folder: string, options: McpServerOptions = {}): McpStdioServer {
  return { command: process.execPath, args: [SERVER_BIN.filesystem, folder], ...options };
}

/** The process ids a `pidFile` holds, one per server start. */
export function startedPids(pidFile: string): number[] {
  try {
    return readFileSync(pidFile, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map(Number);
  } catch {
    return [];
  }
}

/** A server-everything in streamable HTTP mode, started by the test. */
export interface HttpEverything {
  config(options?: McpServerOptions): McpHttpServer;
  stop(): Promise<void>;
}

/** Starts server-everything's streamable HTTP transport on a free port and waits until it listens. */
export async function startHttpEverything(): Promise<HttpEverything> {
  const port = await findFreePort();
  const child = spawn(process.execPath, [SERVER_BIN.everything, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await listening(child);
  return {
    config: (options = {}) => ({ url: `http://127.0.0.1:${port}/mcp`, ...options }),
    stop: () => stopChild(child),
  };
}

function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("listening on port")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${output}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
