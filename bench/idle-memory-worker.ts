// The worker process of the idle-memory benchmark (bench/idle-memory.ts samples its RSS from /proc).
// Env: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TASK_QUEUE, MAX_CACHED_SESSIONS (a number, or "sdk" for Temporal's own
// default cache size). Prints "ready" once polling; answers each "status" line on stdin with one JSON line.
import { createInterface } from "node:readline";
import { DefaultLogger, NativeConnection, Runtime } from "@temporalio/worker";
import { createWorker } from "../src/worker.js";
import { IDLE_MEMORY_AGENT, idleMemoryAgent, idleMemoryModel } from "./idle-memory-agent.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`idle-memory-worker: ${name} is not set`);
  return value;
};

Runtime.install({ logger: new DefaultLogger("ERROR") });
const connection = await NativeConnection.connect({ address: env("TEMPORAL_ADDRESS") });
const cache = env("MAX_CACHED_SESSIONS");
const worker = await createWorker({
  agents: [idleMemoryAgent],
  providers: { [idleMemoryModel.id]: idleMemoryModel },
  taskQueue: env("TASK_QUEUE"),
  connection,
  namespace: env("TEMPORAL_NAMESPACE"),
  deltas: false,
  // "sdk": what createWorker did before it sized the cache (Temporal's default: about 600 per GiB of heap limit).
  ...(cache === "sdk"
    ? { workerOptions: { maxCachedWorkflows: undefined } }
    : { maxCachedSessions: Number(cache) }),
});
const sessionWorker = worker.workers.get(IDLE_MEMORY_AGENT)!;
const running = worker.run();
console.log(`ready ${JSON.stringify({ maxCachedWorkflows: sessionWorker.options.maxCachedWorkflows })}`);

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() !== "status") return;
  const status = sessionWorker.getStatus();
  const heap = process.memoryUsage();
  console.log(
    `status ${JSON.stringify({
      cachedSessions: status.numCachedWorkflows,
      heapUsedMb: Math.round(heap.heapUsed / 1048576),
      externalMb: Math.round(heap.external / 1048576),
    })}`,
  );
});
lines.on("close", () => worker.shutdown());
await running;
await connection.close();
