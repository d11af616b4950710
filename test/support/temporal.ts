import { randomUUID } from "node:crypto";
import { Client, Connection } from "@temporalio/client";
import { DefaultLogger, NativeConnection, Runtime } from "@temporalio/worker";
import { inject } from "vitest";
import { AgentClient } from "../../src/client.js";
import type { AgentDefinition } from "../../src/define-agent.js";
import { createWorker, type AgentWorker } from "../../src/worker.js";
import type { ProviderMap } from "../../src/activities/index.js";
import type { DeltaTransport } from "../../src/stream/delta-transport.js";

// Worker state changes are noise in test output; warnings and errors still show.
Runtime.install({ logger: new DefaultLogger("WARN") });

/** The address of the suite's dev server. */
export function temporalAddress(): string {
  return inject("temporalAddress");
}

/** A task queue no other test uses. */
export function uniqueTaskQueue(prefix = "test"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** An AgentClient on the suite's dev server. */
export async function testClient(taskQueue: string): Promise<AgentClient> {
  const connection = await Connection.connect({ address: temporalAddress() });
  return new AgentClient(new Client({ connection, namespace: inject("temporalNamespace") }), { taskQueue });
}

/** A running worker; `stop()` shuts it down and waits. */
export interface RunningWorker {
  worker: AgentWorker;
  stop(): Promise<void>;
}

/** Starts a worker for the given agents on the suite's dev server. */
export async function startTestWorker(options: {
  taskQueue: string;
  agents: AgentDefinition[];
  providers: ProviderMap;
  deltas?: DeltaTransport | false;
  toolTaskQueues?: string[];
}): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: temporalAddress() });
  const worker = await createWorker({ ...options, connection, namespace: inject("temporalNamespace") });
  const running = worker.run();
  return {
    worker,
    async stop() {
      if (worker.getState() === "RUNNING") worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
