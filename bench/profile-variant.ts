// `npx tsx bench/profile-variant.ts <following|quiet|minimal> [sessions]`: runs one way of running the durable
// benchmark's 50-turn loop, alone, a number of times (default 20, after one warm-up), and prints its median wall time
// and worker CPU per turn. With `BENCH_WORKER_CPU_PROF=<dir>` the worker process writes a CPU profile per thread there,
// holding that variant's turns only, so two profiles compare the variants (`npx tsx bench/cpu-profile-summary.ts
// <dir>`). The durable benchmark interleaves the variants in one worker process; this keeps them apart.
import { AgentClient } from "../src/client.js";
import { openDurableBenchEnv } from "./durable-bench-env.js";
import {
  clockFor,
  minimalVariant,
  quietVariant,
  runtimeVariant,
  type Sample,
  type Variant,
} from "./durable-overhead.js";
import { OVERHEAD_TURNS, overheadAgent } from "./overhead-agent.js";
import { startOverheadWorkers } from "./overhead-workers.js";
import { temporalServerPids } from "./process-cpu.js";

const VARIANTS = ["following", "quiet", "minimal"] as const;
const [name, count = "20"] = process.argv.slice(2);
const sessions = Number(count);
if (!VARIANTS.includes(name as (typeof VARIANTS)[number]) || !Number.isInteger(sessions) || sessions < 1) {
  console.error(`usage: tsx bench/profile-variant.ts <${VARIANTS.join("|")}> [sessions]`);
  process.exit(2);
}

const env = await openDurableBenchEnv();
const workers = await startOverheadWorkers(env);
try {
  const startClock = clockFor(workers, env.endpoint.started ? temporalServerPids(env.endpoint.address) : []);
  const { queues } = workers;
  const variants: Record<(typeof VARIANTS)[number], () => Variant> = {
    following: () =>
      runtimeVariant(
        new AgentClient(env.client, { taskQueue: queues.runtime, deltas: "temporal" }),
        false,
        startClock,
        () => 0,
      ),
    quiet: () =>
      quietVariant(
        new AgentClient(env.client, { taskQueue: queues.quiet, deltas: "temporal" }),
        overheadAgent,
        startClock,
      ),
    minimal: () => minimalVariant(env, queues.minimal, overheadAgent, startClock),
  };
  const variant = variants[name as (typeof VARIANTS)[number]]();
  await variant(); // warm-up
  const samples: Sample[] = [];
  for (let index = 0; index < sessions; index++) samples.push(await variant());
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const perTurn = (pick: (sample: Sample) => number) =>
    (median(samples.map(pick)) / OVERHEAD_TURNS).toFixed(2);
  console.log(
    `${name}: ${sessions} sessions of ${OVERHEAD_TURNS} turns, median ${perTurn((sample) => sample.ms)} ms/turn, ` +
      `worker CPU ${perTurn((sample) => sample.cpuMs)} ms/turn`,
  );
} finally {
  await workers.stop();
  await env.close();
}
