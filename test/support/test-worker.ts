import { randomUUID } from "node:crypto";
import { NativeConnection } from "@temporalio/worker";
import { inject } from "vitest";
import { AgentClient } from "../../src/client.js";
import type { AgentDefinition } from "../../src/define-agent.js";
import type { ProviderMap } from "../../src/activities/index.js";
import type { PayloadStorageOption } from "../../src/storage/payload-storage.js";
import type { DeltaTransport } from "../../src/stream/delta-transport.js";
import type { AgentTracing } from "../../src/telemetry/agent-tracing.js";
import { createWorker, type AgentWorker, type CreateWorkerOptions } from "../../src/worker.js";

// No Runtime.install here: a test file that captures the worker's log installs its own runtime before it starts a
// worker (temporal.ts installs the quiet default for the others).

/** The address of the suite's dev server. */
export function temporalAddress(): string {
  return inject("temporalAddress");
}

/** A task queue no other test uses. */
export function uniqueTaskQueue(prefix = "test"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
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
  /** Omitted: the environment's (LITE_AGENT_STORAGE*), as a user's worker. */
  storage?: PayloadStorageOption;
  approverGroups?: Record<string, string[]>;
  /** Omitted: the environment's (OTEL_EXPORTER_OTLP_ENDPOINT), as a user's worker. */
  tracing?: AgentTracing | false;
  /** Temporal worker options over the product's defaults (a forced replay mode still overrides them). */
  workerOptions?: CreateWorkerOptions["workerOptions"];
  /** The worker deployment version the worker is (omitted: from the environment, as a user's worker). */
  deployment?: CreateWorkerOptions["deployment"];
  /** MCP listing deadline and breaker windows (omitted: the product's defaults). */
  mcp?: CreateWorkerOptions["mcp"];
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

/** An AgentClient connected as a user's would be (its own connection; storage from the environment if omitted). */
export function connectTestClient(taskQueue: string, storage?: PayloadStorageOption): Promise<AgentClient> {
  return AgentClient.connect({
    address: temporalAddress(),
    namespace: inject("temporalNamespace"),
    taskQueue,
    ...(storage !== undefined ? { storage } : {}),
  });
}
