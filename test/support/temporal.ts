import { Client, Connection } from "@temporalio/client";
import { inject } from "vitest";
import { AgentClient } from "../../src/client.js";
import { installTestRuntime } from "./core-debug-log.js";
import { temporalAddress } from "./test-worker.js";

export {
  connectTestClient,
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "./test-worker.js";

// Worker state changes are noise in test output; warnings and errors still show (or the core's debug log, on request).
installTestRuntime();

/** An AgentClient on the suite's dev server. */
export async function testClient(taskQueue: string): Promise<AgentClient> {
  const connection = await Connection.connect({ address: temporalAddress() });
  return new AgentClient(new Client({ connection, namespace: inject("temporalNamespace") }), { taskQueue });
}

/**
 * How long to poll a state read through a query (`describe`). A query that reaches a worker without a workflow cache
 * while one of the session's tasks is in flight is dropped when the run is evicted, and waits out the server's 30 s
 * query timeout before the client asks again; forced replay (no-cache, as npm test runs the workflow suites) hits that.
 */
export const QUERY_POLL_TIMEOUT_MS = 60_000;
