// The workers of the durable-overhead benchmarks, in a process of their own, so their CPU time is measured apart from
// the client's (bench/overhead-workers.ts starts it). Input: one JSON argument ({@link WorkerHostConfig}). It says
// `ready` over IPC once every worker polls, and stops its workers on `stop` or when the benchmark is gone.
import { NativeConnection } from "@temporalio/worker";
import { createWorker, temporalDeltaTransport } from "../src/worker.js";
import { installQuietRuntime, runWorker, type RunningWorker } from "./durable-bench-env.js";
import { startMinimalLoopWorker } from "./minimal-loop/worker.js";
import { overheadAgent, overheadProviders, throughputAgent } from "./overhead-agent.js";

/** What the host serves. */
export interface WorkerHostConfig {
  address: string;
  namespace: string;
  /** Task queues (bases, for the runtime's workers): live deltas, no live deltas, the bare loop. */
  queues: { runtime: string; quiet: string; minimal: string };
}

const config = JSON.parse(process.argv[2]!) as WorkerHostConfig;
installQuietRuntime();
const connection = await NativeConnection.connect({ address: config.address });
const agents = [overheadAgent, throughputAgent];
const options = { connection, namespace: config.namespace, agents, providers: overheadProviders() };
const workers: RunningWorker[] = [
  runWorker(
    await createWorker({ ...options, taskQueue: config.queues.runtime, deltas: temporalDeltaTransport() }),
  ),
  runWorker(await createWorker({ ...options, taskQueue: config.queues.quiet, deltas: false })),
  await startMinimalLoopWorker({ ...options, taskQueue: config.queues.minimal }),
];
let stopping = false;
const stop = (code: number) => {
  if (stopping) return;
  stopping = true;
  void Promise.all(workers.map((worker) => worker.stop()))
    .then(() => connection.close())
    .then(() => process.exit(code));
};
process.on("message", (message) => {
  if (message === "stop") stop(0);
});
// The benchmark died without stopping us (an uncaught error, Ctrl-C): do not poll its dead server for ever.
process.once("disconnect", () => stop(1));
process.send!("ready");
