import { fork, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { DurableBenchEnv } from "./durable-bench-env.js";
import type { WorkerHostConfig } from "./overhead-worker-host.js";
import { processCpuMs } from "./process-cpu.js";

/** The benchmark's workers, running in their own process (bench/overhead-worker-host.ts). */
export interface OverheadWorkers {
  queues: WorkerHostConfig["queues"];
  /** CPU time (ms) the worker process used so far. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** Starts the worker process and waits until its workers poll. */
export async function startOverheadWorkers(env: DurableBenchEnv): Promise<OverheadWorkers> {
  const unique = (name: string) => `bench-${name}-${randomUUID().slice(0, 8)}`;
  const config: WorkerHostConfig = {
    address: env.endpoint.address,
    namespace: env.endpoint.namespace,
    queues: { runtime: unique("runtime"), quiet: unique("quiet"), minimal: unique("minimal") },
  };
  const host = fileURLToPath(new URL("./overhead-worker-host.ts", import.meta.url));
  // BENCH_WORKER_CPU_PROF=<dir>: the worker process writes a CPU profile per thread there (bench/cpu-profile-summary.ts).
  const profileDir = process.env.BENCH_WORKER_CPU_PROF;
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const child = fork(host, [JSON.stringify(config)], {
    execArgv: ["--import", "tsx", ...profile],
    stdio: "inherit",
  });
  await whenReady(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    queues: config.queues,
    cpuMs: () => processCpuMs(child.pid!),
    async stop() {
      if (child.exitCode === null) child.send("stop");
      await exited;
    },
  };
}

function whenReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once("message", (message) =>
      message === "ready" ? resolve() : reject(new Error(String(message))),
    );
    child.once("exit", (code) => reject(new Error(`the benchmark's worker process exited (${code})`)));
  });
}
