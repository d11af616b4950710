import { randomUUID } from "node:crypto";
import { Client } from "@temporalio/client";
import { AgentClient } from "../src/client.js";
import { toAgentPlan, type AgentDefinition } from "../src/define-agent.js";
import type { DurableBenchEnv } from "./durable-bench-env.js";
import { profileHistory, type HistoryProfile } from "./history-profile.js";
import type { minimalLoop } from "./minimal-loop/workflow.js";
import { OVERHEAD_TURNS, THROUGHPUT_TURNS, overheadAgent, throughputAgent } from "./overhead-agent.js";
import { startOverheadWorkers, type OverheadWorkers } from "./overhead-workers.js";
import { temporalServerPids, totalCpuMs } from "./process-cpu.js";
import { followRun, startSessionRun } from "./start-session-run.js";

const TURNS = OVERHEAD_TURNS;
const agent = overheadAgent;
/** Sessions run at once by the throughput benchmark. */
const CONCURRENT_SESSIONS = 50;

/** The per-turn figures of one way of running the 50-turn loop. */
export interface LoopTiming {
  /** Median over the measured runs of (run wall time / turns), in ms. */
  msPerTurnMedian: number;
  msPerTurnBest: number;
  /** Every measured run, ms per turn, in run order. */
  samples: number[];
  /** Median CPU time of the worker process per turn (ms): independent of the server's dispatch latency. */
  cpuMsPerTurnMedian: number;
  /** Median CPU time per turn of the benchmark's own process: the client (starting, following, awaiting). */
  clientCpuMsPerTurnMedian: number;
  /** Median CPU time per turn of the Temporal server, when it runs on this machine. */
  serverCpuMsPerTurnMedian?: number;
  /** Median workflow queries per turn the client made (a following client's reads; each is worker and server work). */
  queriesPerTurnMedian?: number;
  /** The last measured run's history, divided per turn where it says so. */
  history: {
    eventsPerTurn: number;
    workflowTasksPerTurn: number;
    bytesPerTurn: number;
    profile: HistoryProfile;
  };
}

/** Turns per second of one worker running many sessions at once, and where the CPU went. */
export interface ThroughputFigures {
  sessions: number;
  turnsPerSession: number;
  seconds: number;
  turnsPerSecond: number;
  workerCpuMsPerTurn: number;
  serverCpuMsPerTurn?: number;
  clientCpuMsPerTurn: number;
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
  /** Each runtime variant's median of per-round ratios over the minimal loop: wall time, worker CPU, server CPU. */
  ratio: number;
  ratioInline: number;
  ratioQuiet: number;
  cpuRatio: number;
  cpuRatioQuiet: number;
  serverCpuRatio?: number;
  serverCpuRatioQuiet?: number;
  /** The goals (docs/decisions/0014): wall time following and not, worker CPU, server CPU, over the minimal loop. */
  targets: { following: number; quiet: number; workerCpu: number; serverCpu: number };
  /** 50 sessions at once on one worker (nobody following), this runtime and the minimal loop. */
  throughput: { runtime: ThroughputFigures; minimalLoop: ThroughputFigures };
}

/** One run of a loop: its wall time, the CPU time of the workers, the client and the server (ms), its workflow id. */
export interface Sample {
  ms: number;
  cpuMs: number;
  clientCpuMs: number;
  serverCpuMs: number | undefined;
  workflowId: string;
  /** Workflow queries the client made during the run, when counted. */
  queries?: number;
}

/** One way of running a 50-turn loop: runs it once. */
export type Variant = () => Promise<Sample>;

type Elapsed = Omit<Sample, "workflowId" | "queries">;

/** A client on the same connection that counts the workflow queries it makes. */
function queryCountingClient(client: Client): { client: Client; queries: () => number } {
  let queries = 0;
  const counting = new Client({
    connection: client.connection,
    namespace: client.options.namespace,
    interceptors: {
      workflow: [
        {
          query: (input, next) => {
            queries++;
            return next(input);
          },
        },
      ],
    },
  });
  return { client: counting, queries: () => queries };
}

/** Starts measuring wall time and the CPU time of the worker process, of this process (the client) and the server. */
export function clockFor(workers: OverheadWorkers, serverPids: number[]): () => () => Elapsed {
  const server = () => (serverPids.length > 0 ? totalCpuMs(serverPids) : undefined);
  return () => {
    const wall = performance.now();
    const client = process.cpuUsage();
    const worker = workers.cpuMs();
    const serverAtStart = server();
    return () => {
      const used = process.cpuUsage(client);
      const serverNow = server();
      return {
        ms: performance.now() - wall,
        cpuMs: workers.cpuMs() - worker,
        clientCpuMs: (used.user + used.system) / 1000,
        serverCpuMs:
          serverNow === undefined || serverAtStart === undefined ? undefined : serverNow - serverAtStart,
      };
    };
  };
}

/**
 * Per-turn orchestration overhead on a real Temporal server: a 50-turn run with a zero-latency model and a no-op
 * tool, through this runtime (AgentClient → session workflow → kernel → activities) and through a minimal
 * hand-written loop that calls the same activities. Runs are interleaved; the first of each is a warm-up. The
 * workers run in a process of their own, so their CPU time is measured apart from the client's and the server's.
 * Then 50 sessions at once on one worker, to measure throughput.
 */
export async function benchDurableOverhead(env: DurableBenchEnv, runs = 5): Promise<DurableOverheadResult> {
  const workers = await startOverheadWorkers(env);
  const serverPids = env.endpoint.started ? temporalServerPids(env.endpoint.address) : [];
  const startClock = clockFor(workers, serverPids);
  try {
    const { queues } = workers;
    const counted = queryCountingClient(env.client);
    const client = new AgentClient(counted.client, { taskQueue: queues.runtime, deltas: "temporal" });
    const quietClient = new AgentClient(env.client, { taskQueue: queues.quiet, deltas: "temporal" });
    const measured = await measureInterleaved(
      {
        runtime: runtimeVariant(client, false, startClock, counted.queries),
        runtimeInline: runtimeVariant(client, true, startClock, counted.queries),
        runtimeQuiet: quietVariant(quietClient, agent, startClock),
        minimalLoop: minimalVariant(env, queues.minimal, agent, startClock),
      },
      runs,
    );
    const timings = {
      runtime: await loopTiming(env, measured.runtime),
      runtimeInline: await loopTiming(env, measured.runtimeInline),
      runtimeQuiet: await loopTiming(env, measured.runtimeQuiet),
      minimalLoop: await loopTiming(env, measured.minimalLoop),
    };
    // Each round's ratio to the minimal loop's run of the same round, then their median: the machine's speed drifts
    // over minutes on a shared machine, and a variant and the loop run within seconds of each other in a round.
    const paired = (variant: Sample[], pick: (sample: Sample) => number | undefined) =>
      medianRatio(variant, measured.minimalLoop, pick);
    const ratio = (variant: Sample[]) => paired(variant, (sample) => sample.ms)!;
    const cpuRatio = (variant: Sample[]) => paired(variant, (sample) => sample.cpuMs)!;
    const serverRatio = (variant: Sample[]) => paired(variant, (sample) => sample.serverCpuMs);
    const throughput = {
      runtime: await measureThroughput(quietVariant(quietClient, throughputAgent, startClock)),
      minimalLoop: await measureThroughput(minimalVariant(env, queues.minimal, throughputAgent, startClock)),
    };
    return {
      turns: TURNS,
      runs,
      ...timings,
      ratio: ratio(measured.runtime),
      ratioInline: ratio(measured.runtimeInline),
      ratioQuiet: ratio(measured.runtimeQuiet),
      cpuRatio: cpuRatio(measured.runtime),
      cpuRatioQuiet: cpuRatio(measured.runtimeQuiet),
      ...optional("serverCpuRatio", serverRatio(measured.runtime)),
      ...optional("serverCpuRatioQuiet", serverRatio(measured.runtimeQuiet)),
      targets: { following: 1.2, quiet: 1.1, workerCpu: 1.3, serverCpu: 1.1 },
      throughput,
    };
  } finally {
    await workers.stop();
  }
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

/**
 * Runs {@link CONCURRENT_SESSIONS} sessions of the throughput agent at once (after one warm-up session) and
 * measures them together: the CPU figures are the whole batch's, per turn.
 */
async function measureThroughput(variant: Variant): Promise<ThroughputFigures> {
  await variant();
  const clock = performance.now();
  const samples = await Promise.all(Array.from({ length: CONCURRENT_SESSIONS }, () => variant()));
  const seconds = (performance.now() - clock) / 1000;
  // Every sample's clock spans (almost) the whole batch: the batch's CPU is the largest of them.
  const most = (pick: (sample: Sample) => number | undefined) =>
    Math.max(...samples.map((sample) => pick(sample) ?? 0));
  const turns = CONCURRENT_SESSIONS * THROUGHPUT_TURNS;
  const server = most((sample) => sample.serverCpuMs);
  return {
    sessions: CONCURRENT_SESSIONS,
    turnsPerSession: THROUGHPUT_TURNS,
    seconds: round(seconds, 100),
    turnsPerSecond: round(turns / seconds, 10),
    workerCpuMsPerTurn: round(most((sample) => sample.cpuMs) / turns, 100),
    ...optional(
      "serverCpuMsPerTurn",
      samples[0]?.serverCpuMs === undefined ? undefined : round(server / turns, 100),
    ),
    clientCpuMsPerTurn: round(most((sample) => sample.clientCpuMs) / turns, 100),
  };
}

export type StartClock = ReturnType<typeof clockFor>;

/** Starts the run and closes the session at once (queued runs still finish), then awaits the workflow's result. */
export function quietVariant(
  client: AgentClient,
  definition: AgentDefinition,
  startClock: StartClock,
): Variant {
  const turns = definition.maxTurns ?? OVERHEAD_TURNS;
  return async () => {
    const clock = startClock();
    const run = await client.start(definition.name, "go");
    await client.session(run.sessionId).close();
    const outcome = await client.session(run.sessionId).workflow.result();
    const elapsed = clock();
    if (outcome.turns !== turns) throw new Error(`quiet run took ${outcome.turns} turns, expected ${turns}`);
    return { ...elapsed, workflowId: run.sessionId };
  };
}

export function runtimeVariant(
  client: AgentClient,
  inlineRequests: boolean,
  startClock: StartClock,
  queries: () => number,
): Variant {
  return async () => {
    const clock = startClock();
    const queriesBefore = queries();
    const run = inlineRequests
      ? await startSessionRun(client, agent.name, "go", { inlineRequests })
      : await client.start(agent.name, "go");
    const result = await followRun(client, run);
    const elapsed = clock();
    const made = queries() - queriesBefore;
    if (result.stopReason !== "stop") throw new Error(`benchmark run ended with ${result.stopReason}`);
    // Outside the timing: the session workflow completes before the next sample starts.
    await client.session(run.sessionId).close();
    await client.session(run.sessionId).workflow.result();
    return { ...elapsed, workflowId: run.sessionId, queries: made };
  };
}

export function minimalVariant(
  env: DurableBenchEnv,
  taskQueue: string,
  definition: AgentDefinition,
  startClock: StartClock,
): Variant {
  const tools = toAgentPlan(definition).tools.map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  const turns = definition.maxTurns ?? OVERHEAD_TURNS;
  return async () => {
    const workflowId = `bench-minimal-${randomUUID()}`;
    const clock = startClock();
    const result = await env.client.workflow.execute<typeof minimalLoop>("minimalLoop", {
      taskQueue,
      workflowId,
      args: [{ agent: definition.name, model: definition.model, prompt: "go", tools, maxTurns: turns }],
    });
    const elapsed = clock();
    if (result.turns !== turns) throw new Error(`minimal loop ran ${result.turns} turns, expected ${turns}`);
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
  const median = (pick: (sample: Sample) => number) => {
    const sorted = samples.map((sample) => pick(sample) / TURNS).sort((a, b) => a - b);
    return round(sorted[Math.floor(sorted.length / 2)]!, 100);
  };
  const history = await env.client.workflow.getHandle(samples.at(-1)!.workflowId).fetchHistory();
  const profile = profileHistory(history.events ?? []);
  return {
    msPerTurnMedian: sorted[Math.floor(sorted.length / 2)]!,
    msPerTurnBest: sorted[0]!,
    samples: perTurn,
    cpuMsPerTurnMedian: median((sample) => sample.cpuMs),
    clientCpuMsPerTurnMedian: median((sample) => sample.clientCpuMs),
    ...(samples.every((sample) => sample.serverCpuMs !== undefined)
      ? { serverCpuMsPerTurnMedian: median((sample) => sample.serverCpuMs!) }
      : {}),
    ...(samples.every((sample) => sample.queries !== undefined)
      ? { queriesPerTurnMedian: median((sample) => sample.queries!) }
      : {}),
    history: {
      eventsPerTurn: round(profile.events / TURNS, 10),
      workflowTasksPerTurn: round(profile.workflowTasks / TURNS, 100),
      bytesPerTurn: Math.round(profile.bytes / TURNS),
      profile,
    },
  };
}

/**
 * The median of the per-round ratios `variant[i] / baseline[i]` of a figure (samples of the same round pair up);
 * undefined when a sample lacks the figure.
 */
function medianRatio(
  variant: Sample[],
  baseline: Sample[],
  pick: (sample: Sample) => number | undefined,
): number | undefined {
  const ratios: number[] = [];
  for (const [index, sample] of variant.entries()) {
    const value = pick(sample);
    const base = baseline[index] && pick(baseline[index]);
    if (value === undefined || !base) return undefined;
    ratios.push(value / base);
  }
  ratios.sort((a, b) => a - b);
  return round(ratios[Math.floor(ratios.length / 2)]!, 100);
}

function round(value: number, scale: number): number {
  return Math.round(value * scale) / scale;
}
