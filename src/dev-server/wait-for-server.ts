import { connect as tcpConnect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Connection } from "@temporalio/client";
import { DevServerError } from "./dev-server-error.js";
import { hostPort } from "./host-port.js";
import type { ServerProcess } from "./server-process.js";

/** What {@link waitForServer} waits for. */
export interface WaitForServerOptions {
  readonly host: string;
  readonly port: number;
  readonly namespace: string;
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** The process being waited on: an early exit ends the wait with its output. */
  readonly server: ServerProcess;
}

function portAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port, timeout: 1_000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}

async function namespaceReady(address: string, namespace: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 2_000 }).catch(() => undefined);
  if (connection === undefined) return false;
  try {
    // The port opens before the namespace is registered; describeNamespace answers NOT_FOUND until then.
    await connection.withDeadline(Date.now() + 2_000, () =>
      connection.workflowService.describeNamespace({ namespace }),
    );
    return true;
  } catch {
    return false;
  } finally {
    await connection.close();
  }
}

function exitedEarly(server: ServerProcess): DevServerError {
  const exit = server.exitInfo();
  const how = exit?.error
    ? exit.error.message
    : `code ${exit?.code ?? "none"}, signal ${exit?.signal ?? "none"}`;
  return new DevServerError(
    `The Temporal server exited before it was ready (${how}). Its output:\n${server.outputExcerpt()}`,
  );
}

/**
 * Resolves when the gRPC port accepts connections and the namespace answers `describeNamespace`. Rejects
 * with the server's last output when it exits first or the deadline passes.
 */
export async function waitForServer(options: WaitForServerOptions): Promise<void> {
  const address = hostPort(options.host, options.port);
  const deadline = Date.now() + options.timeoutMs;
  // A probe can take seconds (connect timeouts); an exit ends the wait at once instead.
  const exited = options.server.exited.then(() => "exited" as const);
  const probe = async () =>
    (await portAnswers(options.host, options.port)) && (await namespaceReady(address, options.namespace));
  while (Date.now() < deadline) {
    const outcome = await Promise.race([probe(), exited]);
    if (outcome === "exited") throw exitedEarly(options.server);
    if (outcome) return;
    await sleep(100);
  }
  throw new DevServerError(
    `The Temporal server at ${address} was not ready within ${options.timeoutMs} ms. Its output:\n` +
      options.server.outputExcerpt(),
  );
}
