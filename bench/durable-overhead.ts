import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AgentClient } from "../src/client.js";
import { defineAgent, toAgentPlan } from "../src/define-agent.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../src/kernel/model.js";
import { defineTool } from "../src/kernel/tools.js";
import { createWorker, temporalDeltaTransport } from "../src/worker.js";
import type { DurableBenchEnv, RunningWorker } from "./durable-bench-env.js";
import { runWorker } from "./durable-bench-env.js";
import { profileHistory, type HistoryProfile } from "./history-profile.js";
import { startMinimalLoopWorker } from "./minimal-loop/worker.js";
import type { minimalLoop } from "./minimal-loop/workflow.js";
import { followRun, startSessionRun } from "./start-session-run.js";

const TURNS = 50;

/** The per-turn figures of one way of running the 50-turn loop. */
export interface LoopTiming {
  /** Median over the measured runs of (run wall time / turns), in ms. */
  msPerTurnMedian: number;
  msPerTurnBest: number;
  /** Every measured run, ms per turn, in run order. */
  samples: number[];
  /** Median CPU time of this process (workers + client) per turn, in ms: independent of the server's dispatch latency. */
  cpuMsPerTurnMedian: number;
  /** The last measured run's history, divided per turn where it says so. */
  history: {
    eventsPerTurn: number;
    workflowTasksPerTurn: number;
    bytesPerTurn: number;
    profile: HistoryProfile;
  };
}

/** What the durable-overhead benchmark measured. */
export interface DurableOverheadResult {
  turns: number;
  runs: number;
  /** The session workflow through AgentClient, as shipped: requests by reference, live deltas, a client following. */
  runtime: LoopTiming;
  /** The same with `inlineRequests` (no `modelRequest` query per model call), to isolate that query's cost. */
  runtimeInline: LoopTiming;
  /** Requests by reference, but no live-delta transport and no client following the events (start, close, result). */
  runtimeQuiet: LoopTiming;
  /** The hand-written loop (bench/minimal-loop) calling the same activities. */
  minimalLoop: LoopTiming;
  /** Each runtime variant's median over the minimal loop's. */
  ratio: number;
  ratioInline: number;
  ratioQuiet: number;
  targetRatio: number;
}

/** A stateless zero-latency model: a tool call on every turn but the last (counted from the request), then text. */
function zeroLatencyModel(turns: number): ModelProvider {
  return {
    id: "zero-latency",
    async *stream(request: ModelRequest): AsyncIterable<ModelChunk> {
      const turn = request.messages.filter((message) => message.role === "assistant").length + 1;
      const content =
        turn >= turns
          ? [{ type: "text" as const, text: "done" }]
          : [{ type: "tool_call" as const, id: `c${turn}`, name: "noop", input: {} }];
      if (turn >= turns) yield { type: "text_delta", text: "done" };
      yield {
        type: "message_done",
        message: { role: "assistant", content },
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
}

const noop = defineTool({
  name: "noop",
  description: "does nothing",
  schema: z.object({}),
  execute: () => "ok",
});
const agent = defineAgent({ name: "bench-overhead", model: "zero-latency", tools: [noop], maxTurns: TURNS });

/** One run of a loop: its wall time and this process's CPU time (ms), and its workflow id. */
interface Sample {
  ms: number;
  cpuMs: number;
  workflowId: string;
}

/** One way of running a 50-turn loop: runs it once. */
type Variant = () => Promise<Sample>;

/** Starts measuring wall time and this process's CPU time (the workers, their workflow threads and the client). */
function startClock(): () => { ms: number; cpuMs: number } {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
  };
}

/**
 * Per-turn orchestration overhead on a real Temporal server: a 50-turn run with a zero-latency model and a no-op
 * tool, through this runtime (AgentClient → session workflow → kernel → activities) and through a minimal
 * hand-written loop that calls the same activities. Runs are interleaved; the first of each is a warm-up.
 */
export async function benchDurableOverhead(env: DurableBenchEnv, runs = 5): Promise<DurableOverheadResult> {
  const queues = {
    runtime: uniqueQueue("runtime"),
    quiet: uniqueQueue("quiet"),
    minimal: uniqueQueue("minimal"),
  };
  const providers = { "zero-latency": zeroLatencyModel(TURNS) };
  const options = {
    connection: env.connection,
    namespace: env.endpoint.namespace,
    agents: [agent],
    providers,
  };
  const workers: RunningWorker[] = [];
  try {
    const runtime = await createWorker({
      ...options,
      taskQueue: queues.runtime,
      deltas: temporalDeltaTransport(),
    });
    workers.push(runWorker(runtime));
    workers.push(runWorker(await createWorker({ ...options, taskQueue: queues.quiet, deltas: false })));
    workers.push(await startMinimalLoopWorker({ ...options, taskQueue: queues.minimal }));
    const client = new AgentClient(env.client, { taskQueue: queues.runtime, deltas: "temporal" });
    const measured = await measureInterleaved(
      {
        runtime: runtimeVariant(client, false),
        runtimeInline: runtimeVariant(client, true),
        runtimeQuiet: quietVariant(
          new AgentClient(env.client, { taskQueue: queues.quiet, deltas: "temporal" }),
        ),
        minimalLoop: minimalVariant(env, queues.minimal),
      },
      runs,
    );
    const timings = {
      runtime: await loopTiming(env, measured.runtime),
      runtimeInline: await loopTiming(env, measured.runtimeInline),
      runtimeQuiet: await loopTiming(env, measured.runtimeQuiet),
      minimalLoop: await loopTiming(env, measured.minimalLoop),
    };
    const ratio = (timing: LoopTiming) =>
      round(timing.msPerTurnMedian / timings.minimalLoop.msPerTurnMedian, 100);
    return {
      turns: TURNS,
      runs,
      ...timings,
      ratio: ratio(timings.runtime),
      ratioInline: ratio(timings.runtimeInline),
      ratioQuiet: ratio(timings.runtimeQuiet),
      targetRatio: 1.3,
    };
  } finally {
    for (const worker of workers) await worker.stop();
  }
}

function uniqueQueue(name: string): string {
  return `bench-${name}-${randomUUID().slice(0, 8)}`;
}

/** Starts the run and closes the session at once (queued runs still finish), then awaits the workflow's result. */
function quietVariant(client: AgentClient): Variant {
  return async () => {
    const clock = startClock();
    const run = await client.start(agent.name, "go");
    await client.closeSession(run.sessionId);
    const outcome = await client.handle(run.sessionId).result();
    const elapsed = clock();
    if (outcome.turns !== TURNS) throw new Error(`quiet run took ${outcome.turns} turns, expected ${TURNS}`);
    return { ...elapsed, workflowId: run.sessionId };
  };
}

function runtimeVariant(client: AgentClient, inlineRequests: boolean): Variant {
  return async () => {
    const clock = startClock();
    const run = inlineRequests
      ? await startSessionRun(client, agent.name, "go", { inlineRequests })
      : await client.start(agent.name, "go");
    const result = await followRun(client, run);
    const elapsed = clock();
    if (result.stopReason !== "stop") throw new Error(`benchmark run ended with ${result.stopReason}`);
    // Outside the timing: the session workflow completes before the next sample starts.
    await client.closeSession(run.sessionId);
    await client.handle(run.sessionId).result();
    return { ...elapsed, workflowId: run.sessionId };
  };
}

function minimalVariant(env: DurableBenchEnv, taskQueue: string): Variant {
  const tools = toAgentPlan(agent).tools.map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  return async () => {
    const workflowId = `bench-minimal-${randomUUID()}`;
    const clock = startClock();
    const result = await env.client.workflow.execute<typeof minimalLoop>("minimalLoop", {
      taskQueue,
      workflowId,
      args: [{ agent: agent.name, model: agent.model, prompt: "go", tools, maxTurns: TURNS }],
    });
    const elapsed = clock();
    if (result.turns !== TURNS) throw new Error(`minimal loop ran ${result.turns} turns, expected ${TURNS}`);
    return { ...elapsed, workflowId };
  };
}

/** Runs every variant `runs + 1` times, round-robin, dropping each one's first (warm-up) run. */
async function measureInterleaved<K extends string>(
  variants: Record<K, Variant>,
  runs: number,
): Promise<Record<K, Sample[]>> {
  const names = Object.keys(variants) as K[];
  const measured = Object.fromEntries(names.map((name) => [name, [] as Sample[]])) as Record<K, Sample[]>;
  for (let index = 0; index <= runs; index++) {
    for (const name of names) {
      const sample = await variants[name]();
      if (index > 0) measured[name].push(sample);
    }
  }
  return measured;
}

async function loopTiming(env: DurableBenchEnv, samples: Sample[]): Promise<LoopTiming> {
  const perTurn = samples.map((sample) => round(sample.ms / TURNS, 100));
  const sorted = [...perTurn].sort((a, b) => a - b);
  const cpu = samples.map((sample) => sample.cpuMs / TURNS).sort((a, b) => a - b);
  const history = await env.client.workflow.getHandle(samples.at(-1)!.workflowId).fetchHistory();
  const profile = profileHistory(history.events ?? []);
  return {
    msPerTurnMedian: sorted[Math.floor(sorted.length / 2)]!,
    msPerTurnBest: sorted[0]!,
    samples: perTurn,
    cpuMsPerTurnMedian: round(cpu[Math.floor(cpu.length / 2)]!, 100),
    history: {
      eventsPerTurn: round(profile.events / TURNS, 10),
      workflowTasksPerTurn: round(profile.workflowTasks / TURNS, 100),
      bytesPerTurn: Math.round(profile.bytes / TURNS),
      profile,
    },
  };
}

function round(value: number, scale: number): number {
  return Math.round(value * scale) / scale;
}
