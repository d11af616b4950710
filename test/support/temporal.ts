import { Client, Connection } from "@temporalio/client";
import { DefaultLogger, Runtime } from "@temporalio/worker";
import { inject } from "vitest";
import { AgentClient } from "../../src/client.js";
import { temporalAddress } from "./test-worker.js";

export {
  connectTestClient,
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "./test-worker.js";

// Worker state changes are noise in test output; warnings and errors still show.
Runtime.install({ logger: new DefaultLogger("WARN") });

/** An AgentClient on the suite's dev server. */
export async function testClient(taskQueue: string): Promise<AgentClient> {
  const connection = await Connection.connect({ address: temporalAddress() });
  return new AgentClient(new Client({ connection, namespace: inject("temporalNamespace") }), { taskQueue });
}
