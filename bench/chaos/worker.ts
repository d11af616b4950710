// A worker process of the chaos benchmark (bench/chaos.ts kills it with SIGKILL at any moment).
// Env: TEMPORAL_ADDRESS, TASK_QUEUE (the base queue), LEDGER (the file the tool and the model append to),
// WORKER_NAME, MAX_HISTORY_EVENTS (optional: the agent's continue-as-new budget), HEARTBEAT_TIMEOUT_MS (optional: the
// agent's model and tool heartbeat timeouts; default the durable
// defaults), CHAOS_SPEED (slow or fast: see ChaosSpeed). Prints "worker ready" once polling.
import { DefaultLogger, NativeConnection, Runtime } from "@temporalio/worker";
import { createWorker } from "../../src/worker.js";
import { chaosAgent, chaosModel } from "./agent.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`chaos worker: ${name} is not set`);
  return value;
};
const context = { ledger: env("LEDGER"), worker: env("WORKER_NAME") };
const heartbeat = process.env.HEARTBEAT_TIMEOUT_MS ? Number(process.env.HEARTBEAT_TIMEOUT_MS) : undefined;
const maxHistoryEvents = process.env.MAX_HISTORY_EVENTS ? Number(process.env.MAX_HISTORY_EVENTS) : undefined;
const model = chaosModel(context, process.env.CHAOS_SPEED === "fast" ? "fast" : "slow");

Runtime.install({ logger: new DefaultLogger("ERROR") });
const { connection, worker } = await startWithRetry(env("TEMPORAL_ADDRESS"));
const running = worker.run();
console.log("worker ready");
await running;
await connection.close();

/** Connects and creates the worker (which asks the server about the namespace and the queue). */
async function start(address: string) {
  const connection = await NativeConnection.connect({ address });
  try {
    const worker = await createWorker({
      agents: [chaosAgent(context, heartbeat, maxHistoryEvents)],
      providers: { [model.id]: model },
      taskQueue: env("TASK_QUEUE"),
      connection,
      namespace: "default",
      storage: false,
    });
    return { connection, worker };
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
}

/**
 * A worker started while the benchmark has the server down, or that sees it go down before it polls, waits for it
 * (up to a minute) instead of exiting.
 */
async function startWithRetry(address: string): Promise<Awaited<ReturnType<typeof start>>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await start(address);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
