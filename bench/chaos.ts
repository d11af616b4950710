// `npm run bench -- chaos`: the chaos benchmark (a script that reports figures, not a timed test). It starts its
// own dev server (file DB, fixed port), keeps three worker processes (bench/chaos/worker.ts) alive while it SIGKILLs
// one every 3-5 s (while two are ready: never leaving no ready worker) and starts a replacement, restarts the dev
// server twice (down 15 s, longer than the heartbeat timeouts, then 10 s; same DB and port), and drives CHAOS_SESSIONS sessions of 8-turn runs (a tool call per turn that
// appends to a ledger file) through it all, each run followed by a client whose offsets are checked one by one.
// Afterwards it counts runs lost (not ended with stopReason "stop" by the deadline), completed tool calls repeated
// (a call id with two `tool-end` ledger lines; at-most-once tools must not even start twice), and the recovery time
// of each kill: from the kill to the next ledger line of each session that was in a model or tool call (or between
// two) on the killed worker. Prints a table and writes bench/results/chaos-<speed>.json.
// Last, while the server is up, it replays every session's history from scratch, cut at every workflow task and whole
// (test/support/replay-at-every-cut.ts), with the workflow code: a history the live workers wrote that a replay does
// not reproduce is a session a later takeover would find stuck.
// Env: CHAOS_SESSIONS (50), CHAOS_SECONDS (180: new runs start until then; the two restarts are at 1/3 and 2/3),
// CHAOS_DRAIN_SECONDS (150: how long runs may take to finish after that), CHAOS_HEARTBEAT_MS (the agent's model and
// tool heartbeat timeouts; default the durable defaults, 10 s), CHAOS_MAX_HISTORY_EVENTS (the agent's continue-as-new
// budget: small, sessions continue as new often, in the middle of runs too), CHAOS_SPEED (slow, the default, or fast:
// see ChaosSpeed). `runChaos` runs it with options of its
// own (the smaller chaos test in test/e2e/chaos.test.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentClient } from "../src/client.js";
import { DURABLE_DEFAULTS } from "../src/define-agent.js";
import { startDevServer, type DevServer } from "../src/dev-server/index.js";
import { findFreePort } from "../src/dev-server/free-port.js";
import type { RunResult } from "../src/kernel/vocabulary/events.js";
import type { DurableEvent } from "../src/client/events/run-event-stream.js";
import { loadWorkflowBundle } from "../src/worker/workflow-bundle.js";
import {
  CHAOS_AGENT,
  TURNS_PER_RUN,
  chaosPrompt,
  parseLedgerLine,
  type ChaosSpeed,
  type LedgerLine,
} from "./chaos/agent.js";
import { replayAtEveryCut, type RecordedExecution } from "../test/support/replay-at-every-cut.js";
import { failedWorkflowTasks } from "../test/support/history-tasks.js";

/** How a chaos run goes. */
export interface ChaosOptions {
  sessions: number;
  /** New runs start until then. */
  chaosMs: number;
  /** How long runs may take to finish after that. */
  drainMs: number;
  /** Server restarts (10 s down each), spread evenly over the chaos phase. */
  restarts: number;
  /** The agent's model and tool heartbeat timeouts (default the durable defaults). */
  heartbeatMs?: number;
  /** The agent's continue-as-new budget in history events (default the durable default, 10,000). */
  maxHistoryEvents?: number;
  /** How fast the model and tool work (default slow: see ChaosSpeed). */
  speed?: ChaosSpeed;
}

/** The benchmark's options, from the environment (see the head of this file). */
function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ChaosOptions {
  return {
    sessions: Number(env.CHAOS_SESSIONS ?? 50),
    chaosMs: Number(env.CHAOS_SECONDS ?? 180) * 1000,
    drainMs: Number(env.CHAOS_DRAIN_SECONDS ?? 150) * 1000,
    restarts: 2,
    ...(env.CHAOS_HEARTBEAT_MS ? { heartbeatMs: Number(env.CHAOS_HEARTBEAT_MS) } : {}),
    ...(env.CHAOS_MAX_HISTORY_EVENTS ? { maxHistoryEvents: Number(env.CHAOS_MAX_HISTORY_EVENTS) } : {}),
    ...(env.CHAOS_SPEED === "fast" ? { speed: "fast" as const } : {}),
  };
}

const KILL_EVERY_MS: [number, number] = [3_000, 5_000];
/** The server restarts' outages, in turn: the first longer than the heartbeat timeouts (10 s by default). */
const OUTAGES_MS = [15_000, 10_000];
/** No kills this long before a planned restart and after the server is back, so recoveries are not confounded. */
const KILL_QUIET_BEFORE_RESTART_MS = 10_000;
const KILL_QUIET_AFTER_RESTART_MS = 5_000;
/**
 * Worker processes kept running: three, so a kill every few seconds never leaves the queue without a ready worker
 * while a replacement starts (a start takes seconds on a loaded machine).
 */
const WORKERS = 3;
/** A kill happens only while this many workers are ready: the victim and at least one that keeps polling. */
const READY_TO_KILL = 2;
const RETRY_PAUSE_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round1 = (value: number) => Math.round(value * 10) / 10;
const round2 = (value: number) => Math.round(value * 100) / 100;

interface WorkerProcess {
  name: string;
  child: ChildProcess;
  ready: boolean;
  killed: boolean;
  startedAt: number;
  readyAt?: number;
}

interface Kill {
  worker: string;
  at: number;
}

interface RunRecord {
  sessionId: string;
  runId: string;
  runTag: string;
  startedAt: number;
  finishedAt?: number;
  stopReason?: string;
  /** Client calls that threw (server down, a stream read that gave up) and were retried. */
  clientErrors: number;
  lastClientError?: string;
  /** tool_result events with isError (an at-most-once call interrupted by a kill). */
  toolErrors: number;
  errorEvents: number;
  /** The offset of every event the follower got (live output aside), in order, across its reconnects. */
  offsets: number[];
  /** `events_lost` events the follower got. */
  eventsLost: number;
}

/** What the chaos benchmark measured. */
export interface ChaosResult {
  sessions: number;
  turnsPerRun: number;
  chaosSeconds: number;
  totalSeconds: number;
  runsStarted: number;
  runsCompleted: number;
  runsLost: number;
  lostRuns: LostRun[];
  runSecondsP50: number;
  runSecondsP99: number;
  toolCallsStarted: number;
  toolCallsCompleted: number;
  /** Call ids with more than one `tool-end` line: a completed call that ran again (goal 0). */
  completedToolCallsRepeated: number;
  /** Call ids with more than one `tool-start` line: an at-most-once call started twice (goal 0). */
  toolCallsStartedTwice: number;
  /** Started, never completed: interrupted by a kill (the model got `interrupted before completion`). */
  toolCallsInterrupted: number;
  toolErrorResults: number;
  errorEvents: number;
  modelCalls: number;
  modelCallsRetried: number;
  clientErrorsRetried: number;
  kills: number;
  /** Mean seconds between kills, over the whole chaos phase (quiet around the server restarts included). */
  killIntervalMeanSeconds: number;
  /**
   * Mean seconds between two kills with no server restart between them: the pace of kills while they run (a kill
   * also waits for two ready workers, so slow starts space them out).
   */
  killIntervalBetweenRestartsSeconds: number;
  /** Seconds from spawning a worker process to its "worker ready" (p50, max). */
  workerStartSeconds: { p50: number; max: number };
  unplannedWorkerExits: number;
  serverRestarts: number;
  outages: { downAt: number; upAt: number; seconds: number }[];
  heartbeatTimeoutSeconds: { model: number; tool: number };
  recovery: RecoveryFigures;
  /** The longest time a session with a run in progress wrote no ledger line, outside the server outages. */
  longestStall: { seconds: number; sessionId: string; from: string } | undefined;
  /** Sessions whose history, replayed from scratch after the run, did not replay: why (goal none). */
  historiesNotReplaying: { sessionId: string; error: string }[];
  /**
   * Workflow tasks the histories record as failed, other than by Temporal's bookkeeping (new events during the task,
   * a sticky queue reset): nondeterminism on a live worker, a worker's error (goal none).
   */
  failedWorkflowTasks: {
    sessionId: string;
    runId: string;
    eventId: number;
    cause: string;
    message: string;
  }[];
  /** What the runs' followers got wrong, checked offset by offset over each completed run (goal 0 each). */
  followers: FollowerFigures;
  loadAverage: { start: number[]; end: number[]; meanOneMinute: number };
}

interface FollowerFigures {
  /** Offsets between a completed run's first and last event that its follower never got. */
  gaps: number;
  /** Offsets its follower got more than once. */
  duplicates: number;
  /** Offsets out of order (lower than one got before). */
  outOfOrder: number;
  /** `events_lost` events (the session's history no longer held what the follower missed). */
  eventsLost: number;
  /** The runs with any of these, with what went wrong. */
  runs: { runId: string; gaps: number; duplicates: number; outOfOrder: number }[];
}

interface LostRun {
  sessionId: string;
  runId: string;
  stopReason?: string;
  lastClientError?: string;
  status?: unknown;
  lastLedgerLines: string[];
}

interface RecoverySample {
  kill: number;
  sessionId: string;
  category: "tool" | "model" | "between";
  seconds: number;
}

interface RecoveryFigures {
  /** Sessions that were in a call on (or had last worked on) a killed worker, over all kills. */
  affected: number;
  unrecovered: number;
  p50: number;
  p99: number;
  max: number;
  byCategory: Record<string, { count: number; p50: number; p99: number; max: number }>;
  /** The slowest recoveries (kill time in ISO, the killed worker, the session, what it was doing, seconds). */
  slowest: { killedAt: string; worker: string; sessionId: string; category: string; seconds: number }[];
}

/** Runs the benchmark, prints the table, writes bench/results/chaos-<speed>.json; returns the exit code (always 0). */
export async function runChaosBench(): Promise<number> {
  const options = optionsFromEnv();
  const { result, dir } = await runChaos(options);
  print(result);
  const environment = { node: process.version, cpus: cpus().length, workDir: dir };
  const speed = options.speed ?? "slow";
  const report = { date: new Date().toISOString(), environment, options, results: { chaos: result } };
  mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
  const file = new URL(`./results/chaos-${speed}.json`, import.meta.url);
  writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
  return 0;
}

/**
 * One chaos run (see the head of this file): its figures, and the folder holding its ledger, worker logs and the
 * server's database.
 */
export async function runChaos(options: ChaosOptions): Promise<{ result: ChaosResult; dir: string }> {
  const loadStart = loadavg().map(round2);
  const loadSamples: number[] = [];
  const loadTimer = setInterval(() => loadSamples.push(loadavg()[0]!), 5_000);
  const benchStart = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "lite-agent-chaos-"));
  const ledger = join(dir, "ledger.log");
  writeFileSync(ledger, "");
  const workerLog = createWriteStream(join(dir, "workers.log"));
  const dbFile = join(dir, "temporal.db");
  const port = await findFreePort();
  const taskQueue = `chaos-${randomUUID().slice(0, 8)}`;
  console.error(`chaos: ledger, worker logs and DB in ${dir}`);
  // Warm the on-disk workflow bundle once, so worker processes start in seconds.
  await loadWorkflowBundle();

  let server: DevServer | undefined = await startDevServer({ dbFile, port, headless: true });
  let serverUp = true;
  const address = server.address;
  const workers: WorkerProcess[] = [];
  const kills: Kill[] = [];
  const outages: { downAt: number; upAt: number; seconds: number }[] = [];
  let unplannedExits = 0;
  let workerCount = 0;
  let stopping = false;

  const killAllOnExit = () => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
  };
  process.on("exit", killAllOnExit);

  function spawnWorker(): WorkerProcess {
    const name = `w${++workerCount}`;
    const env: NodeJS.ProcessEnv = { ...process.env, TEMPORAL_ADDRESS: address, TASK_QUEUE: taskQueue };
    Object.assign(env, { LEDGER: ledger, WORKER_NAME: name });
    delete env.REDIS_URL;
    if (options.heartbeatMs !== undefined) env.HEARTBEAT_TIMEOUT_MS = String(options.heartbeatMs);
    if (options.maxHistoryEvents !== undefined) env.MAX_HISTORY_EVENTS = String(options.maxHistoryEvents);
    if (options.speed !== undefined) env.CHAOS_SPEED = options.speed;
    const script = fileURLToPath(new URL("./chaos/worker.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const worker: WorkerProcess = { name, child, ready: false, killed: false, startedAt: Date.now() };
    workers.push(worker);
    child.stdout!.on("data", (chunk: Buffer) => {
      if (!chunk.toString().includes("worker ready")) return;
      worker.ready = true;
      worker.readyAt ??= Date.now();
    });
    child.stderr!.on("data", (chunk: Buffer) => workerLog.write(`[${name}] ${chunk.toString()}`));
    child.once("exit", (code, signal) => {
      worker.ready = false;
      if (worker.killed || stopping) return;
      unplannedExits++;
      workerLog.write(`[${name}] exited unplanned (code ${code}, signal ${signal})\n`);
      console.error(`chaos: worker ${name} exited unplanned (code ${code}, signal ${signal})`);
    });
    return worker;
  }

  const alive = () => workers.filter((worker) => !worker.killed && worker.child.exitCode === null);
  /** Keeps WORKERS worker processes started (while the server is up). */
  const supervise = async () => {
    while (!stopping) {
      if (serverUp) for (let n = alive().length; n < WORKERS; n++) spawnWorker();
      await sleep(250);
    }
  };

  async function killOne(): Promise<void> {
    const ready = alive().filter((worker) => worker.ready);
    if (ready.length < READY_TO_KILL) return; // never leave no ready worker: wait for a replacement
    const victim = ready[Math.floor(Math.random() * ready.length)]!;
    victim.killed = true;
    const exited = new Promise((resolve) => victim.child.once("exit", resolve));
    victim.child.kill("SIGKILL");
    await exited;
    kills.push({ worker: victim.name, at: Date.now() });
    spawnWorker();
  }

  async function restartServer(): Promise<void> {
    serverUp = false;
    await server?.stop();
    server = undefined;
    const downAt = Date.now();
    console.error(`chaos: server down at +${round1((downAt - benchStart) / 1000)} s`);
    await sleep(OUTAGES_MS[outages.length % OUTAGES_MS.length]!);
    server = await startDevServer({ dbFile, port, headless: true });
    const upAt = Date.now();
    outages.push({ downAt, upAt, seconds: round1((upAt - downAt) / 1000) });
    serverUp = true;
    console.error(`chaos: server up again after ${round1((upAt - downAt) / 1000)} s`);
  }

  const supervising = supervise();
  while (alive().filter((worker) => worker.ready).length < WORKERS) await sleep(100);
  console.error(`chaos: ${WORKERS} workers ready after ${round1((Date.now() - benchStart) / 1000)} s`);

  const client = await AgentClient.connect({
    address,
    namespace: "default",
    taskQueue,
    deltas: "temporal",
    storage: false,
    workerWaitMs: 30_000,
  });
  const chaosStart = Date.now();
  const chaosEnd = chaosStart + options.chaosMs;
  const hardDeadline = chaosEnd + options.drainMs;
  const restartsAt = Array.from(
    { length: options.restarts },
    (_, index) => chaosStart + ((index + 1) * options.chaosMs) / (options.restarts + 1),
  );
  const runs: RunRecord[] = [];
  const runTag = randomUUID().slice(0, 6);

  async function driveRun(run: RunRecord): Promise<void> {
    let offset: number | undefined;
    const failed = (error: unknown) => {
      run.clientErrors++;
      run.lastClientError = String(error instanceof Error ? error.message : error).slice(0, 300);
    };
    while (offset === undefined) {
      if (Date.now() > hardDeadline) return;
      try {
        const input = chaosPrompt(run.sessionId, run.runTag);
        offset = (await client.start(CHAOS_AGENT, input, { sessionId: run.sessionId, runId: run.runId }))
          .offset;
      } catch (error) {
        failed(error);
        await sleep(RETRY_PAUSE_MS);
      }
    }
    for (;;) {
      if (Date.now() > hardDeadline) return;
      const stream = client.session(run.sessionId).events(run.runId, { fromOffset: offset });
      try {
        for (;;) {
          const next = await beforeDeadline(stream.next(), hardDeadline);
          if (next === "deadline") {
            void stream.return(undefined as never).catch(() => undefined);
            return;
          }
          if (next.done) {
            const result: RunResult = next.value;
            run.stopReason = result.stopReason;
            run.finishedAt = Date.now();
            return;
          }
          const event: DurableEvent = next.value;
          if (event.deltaId !== undefined) continue;
          run.offsets.push(event.offset);
          if (event.type === "events_lost") run.eventsLost++;
          offset = event.offset + 1;
          if (event.type === "tool_result" && event.result.isError) run.toolErrors++;
          if (event.type === "error") run.errorEvents++;
        }
      } catch (error) {
        failed(error);
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }

  async function driveSession(index: number): Promise<void> {
    const sessionId = `chaos-${runTag}-s${index}`;
    for (let n = 0; Date.now() < chaosEnd; n++) {
      const tag = `r${n}`;
      const run: RunRecord = {
        sessionId,
        runId: `${sessionId}-${tag}`,
        runTag: tag,
        startedAt: Date.now(),
        clientErrors: 0,
        toolErrors: 0,
        errorEvents: 0,
        offsets: [],
        eventsLost: 0,
      };
      runs.push(run);
      await driveRun(run);
      if (run.stopReason !== "stop") return; // lost or failed: the session is reported, not driven on
    }
  }

  const chaos = (async () => {
    let nextKill = chaosStart + pick(KILL_EVERY_MS);
    let restarts = 0;
    while (Date.now() < chaosEnd) {
      const now = Date.now();
      const plannedRestart = restartsAt[restarts];
      if (plannedRestart !== undefined && now >= plannedRestart) {
        await restartServer();
        restarts++;
        nextKill = Date.now() + KILL_QUIET_AFTER_RESTART_MS;
        continue;
      }
      const quiet = plannedRestart !== undefined && now > plannedRestart - KILL_QUIET_BEFORE_RESTART_MS;
      if (now >= nextKill && !quiet && serverUp) {
        await killOne();
        nextKill = Date.now() + pick(KILL_EVERY_MS);
      }
      await sleep(100);
    }
  })();

  const sessions = Array.from({ length: options.sessions }, (_, index) => driveSession(index));
  await chaos;
  console.error(`chaos: chaos phase over (${kills.length} kills, ${outages.length} restarts); draining`);
  await Promise.all(sessions);
  const drainedAt = Date.now();

  // Lost runs: what the session says about them, and its last ledger lines.
  const lines = readLedger(ledger);
  const lostRuns: LostRun[] = [];
  for (const run of runs.filter((candidate) => candidate.stopReason !== "stop")) {
    const status = await beforeDeadline(
      client
        .session(run.sessionId)
        .describe()
        .catch((error: unknown) => `describe failed: ${String(error)}`),
      Date.now() + 10_000,
    );
    lostRuns.push({
      sessionId: run.sessionId,
      runId: run.runId,
      ...(run.stopReason === undefined ? {} : { stopReason: run.stopReason }),
      ...(run.lastClientError === undefined ? {} : { lastClientError: run.lastClientError }),
      status,
      lastLedgerLines: lines
        .filter((line) => line.sessionId === run.sessionId)
        .slice(-4)
        .map((line) => `${new Date(line.at).toISOString()} ${line.kind} ${line.key} ${line.worker}`),
    });
  }

  stopping = true;
  await supervising;
  killAllOnExit();
  const replayed = await replayHistories(
    client,
    Array.from({ length: options.sessions }, (_, index) => `chaos-${runTag}-s${index}`),
  );
  // With runs abandoned at the deadline, the client stays open: their readers may still be retrying, and a retry on
  // a closed channel throws from a timer (uncaught). The benchmark exits right after.
  if (lostRuns.length === 0) await client.close();
  await server?.stop();
  workerLog.end();
  clearInterval(loadTimer);
  process.off("exit", killAllOnExit);

  const result = analyse({
    options,
    ...replayed,
    runs,
    lines,
    kills,
    outages,
    lostRuns,
    unplannedExits,
    workerStarts: workers.flatMap((worker) =>
      worker.readyAt === undefined ? [] : [(worker.readyAt - worker.startedAt) / 1000],
    ),
    chaosStart,
    drainedAt,
    benchStart,
    loadStart,
    loadSamples,
  });
  return { result, dir };
}

/**
 * Replays each execution of each session (every link of its continue-as-new chain) from its start with the workflow
 * code the workers ran, cut at every workflow task boundary and whole: what a worker taking the session over at any
 * task would do. Returns the sessions with an execution whose history it does not reproduce (or could not read), and
 * the workflow tasks the histories record as failed.
 */
async function replayHistories(
  client: AgentClient,
  sessionIds: string[],
): Promise<Pick<ChaosResult, "historiesNotReplaying" | "failedWorkflowTasks">> {
  const workflowBundle = await loadWorkflowBundle();
  const unread: ChaosResult["historiesNotReplaying"] = [];
  const failedTasks: ChaosResult["failedWorkflowTasks"] = [];
  async function* executions(): AsyncGenerator<RecordedExecution> {
    for (const sessionId of sessionIds) {
      let runId = "";
      try {
        for await (const execution of client.temporal.workflow.list({
          query: `WorkflowId = '${sessionId}'`,
        })) {
          runId = execution.runId;
          const history = await client.temporal.workflow.getHandle(sessionId, runId).fetchHistory();
          for (const failed of failedWorkflowTasks(history))
            failedTasks.push({ sessionId, runId, ...failed });
          yield { workflowId: sessionId, runId, history };
        }
      } catch (error) {
        const why = String(error instanceof Error ? error.message : error).slice(0, 300);
        unread.push({ sessionId, error: `run ${runId}: ${why}` });
      }
    }
  }
  const failures = await replayAtEveryCut(executions(), { workflowBundle });
  const historiesNotReplaying = [
    ...unread,
    ...failures.map((failure) => ({
      sessionId: failure.workflowId,
      error: `run ${failure.runId} fails at ${failure.cut}: ${failure.error}`,
    })),
  ];
  return { historiesNotReplaying, failedWorkflowTasks: failedTasks };
}

function pick([low, high]: [number, number]): number {
  return low + Math.random() * (high - low);
}

async function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | "deadline"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"deadline">((resolve) => {
    timer = setTimeout(() => resolve("deadline"), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function readLedger(file: string): LedgerLine[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((text) => parseLedgerLine(text) ?? []);
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

interface AnalysisInput {
  options: ChaosOptions;
  historiesNotReplaying: ChaosResult["historiesNotReplaying"];
  failedWorkflowTasks: ChaosResult["failedWorkflowTasks"];
  runs: RunRecord[];
  lines: LedgerLine[];
  kills: Kill[];
  outages: { downAt: number; upAt: number; seconds: number }[];
  lostRuns: LostRun[];
  unplannedExits: number;
  workerStarts: number[];
  chaosStart: number;
  drainedAt: number;
  benchStart: number;
  loadStart: number[];
  loadSamples: number[];
}

function analyse(input: AnalysisInput): ChaosResult {
  const { runs, lines, kills, outages } = input;
  const callKey = (line: LedgerLine) => `${line.sessionId} ${line.key}`;
  const toolStarts = countBy(
    lines.filter((line) => line.kind === "tool-start"),
    callKey,
  );
  const toolEnds = countBy(
    lines.filter((line) => line.kind === "tool-end"),
    callKey,
  );
  const modelStarts = countBy(
    lines.filter((line) => line.kind === "model-start"),
    callKey,
  );
  const completed = runs.filter((run) => run.stopReason === "stop");
  const runSeconds = completed.map((run) => (run.finishedAt! - run.startedAt) / 1000);

  // Recovery: per kill, the sessions whose last line before the kill came from the killed worker.
  const bySession = new Map<string, LedgerLine[]>();
  for (const line of lines) bySession.set(line.sessionId, [...(bySession.get(line.sessionId) ?? []), line]);
  const samples: RecoverySample[] = [];
  let unrecovered = 0;
  kills.forEach((kill, index) => {
    for (const sessionLines of bySession.values()) {
      const before = sessionLines.filter((line) => line.at <= kill.at);
      const last = before.at(-1);
      if (!last || last.worker !== kill.worker || kill.at - last.at > 60_000) continue;
      const finalTurn = last.kind === "model-end" && last.key.endsWith(`/${TURNS_PER_RUN}`);
      if (finalTurn) continue; // the run was over; the next line waits for the client's next run
      const category =
        last.kind === "tool-start" ? "tool" : last.kind === "model-start" ? "model" : "between";
      const next = sessionLines.find((line) => line.at > kill.at);
      if (!next) {
        unrecovered++;
        continue;
      }
      samples.push({ kill: index, sessionId: last.sessionId, category, seconds: (next.at - kill.at) / 1000 });
    }
  });
  const figures = (values: number[]) => ({
    count: values.length,
    p50: round1(percentile(values, 50)),
    p99: round1(percentile(values, 99)),
    max: round1(Math.max(...values)),
  });
  const byCategory: RecoveryFigures["byCategory"] = {};
  for (const category of ["tool", "model", "between"] as const) {
    const values = samples.filter((sample) => sample.category === category).map((sample) => sample.seconds);
    if (values.length > 0) byCategory[category] = figures(values);
  }
  const all = samples.map((sample) => sample.seconds);

  // Stalls: gaps between a session's consecutive lines within a run, outside the outages (± 5 s).
  let longestStall: ChaosResult["longestStall"];
  const inOutage = (from: number, to: number) =>
    outages.some((outage) => from < outage.upAt + 5_000 && to > outage.downAt - 5_000);
  for (const [sessionId, sessionLines] of bySession) {
    for (let i = 1; i < sessionLines.length; i++) {
      const previous = sessionLines[i - 1]!;
      const current = sessionLines[i]!;
      const gap = (current.at - previous.at) / 1000;
      if (inOutage(previous.at, current.at)) continue;
      if (longestStall === undefined || gap > longestStall.seconds) {
        const from = `${new Date(previous.at).toISOString()} ${previous.kind} ${previous.key} ${previous.worker}`;
        longestStall = { seconds: round1(gap), sessionId, from };
      }
    }
  }

  const sum = (pick: (run: RunRecord) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const meanLoad = input.loadSamples.reduce((a, b) => a + b, 0) / Math.max(1, input.loadSamples.length);
  return {
    sessions: input.options.sessions,
    turnsPerRun: TURNS_PER_RUN,
    chaosSeconds: input.options.chaosMs / 1000,
    totalSeconds: round1((input.drainedAt - input.benchStart) / 1000),
    runsStarted: runs.length,
    runsCompleted: completed.length,
    runsLost: runs.length - completed.length,
    lostRuns: input.lostRuns,
    runSecondsP50: round1(percentile(runSeconds, 50)),
    runSecondsP99: round1(percentile(runSeconds, 99)),
    toolCallsStarted: toolStarts.size,
    toolCallsCompleted: toolEnds.size,
    completedToolCallsRepeated: [...toolEnds.values()].filter((count) => count > 1).length,
    toolCallsStartedTwice: [...toolStarts.values()].filter((count) => count > 1).length,
    toolCallsInterrupted: [...toolStarts.keys()].filter((key) => !toolEnds.has(key)).length,
    toolErrorResults: sum((run) => run.toolErrors),
    errorEvents: sum((run) => run.errorEvents),
    modelCalls: modelStarts.size,
    modelCallsRetried: [...modelStarts.values()].filter((count) => count > 1).length,
    clientErrorsRetried: sum((run) => run.clientErrors),
    kills: kills.length,
    killIntervalMeanSeconds:
      kills.length < 2 ? NaN : round1((kills.at(-1)!.at - kills[0]!.at) / 1000 / (kills.length - 1)),
    killIntervalBetweenRestartsSeconds: round1(meanGapBetweenRestarts(kills, input.outages)),
    workerStartSeconds: {
      p50: round1(percentile(input.workerStarts, 50)),
      max: round1(Math.max(...input.workerStarts)),
    },
    unplannedWorkerExits: input.unplannedExits,
    serverRestarts: outages.length,
    outages: outages.map((outage) => ({
      ...outage,
      downAt: round1((outage.downAt - input.chaosStart) / 1000),
      upAt: round1((outage.upAt - input.chaosStart) / 1000),
    })),
    heartbeatTimeoutSeconds: {
      model: (input.options.heartbeatMs ?? DURABLE_DEFAULTS.modelRetry.heartbeatTimeoutMs) / 1000,
      tool: (input.options.heartbeatMs ?? DURABLE_DEFAULTS.toolHeartbeatTimeoutMs) / 1000,
    },
    recovery: {
      affected: samples.length + unrecovered,
      unrecovered,
      p50: round1(percentile(all, 50)),
      p99: round1(percentile(all, 99)),
      max: round1(Math.max(...all)),
      byCategory,
      slowest: [...samples]
        .sort((a, b) => b.seconds - a.seconds)
        .slice(0, 10)
        .map((sample) => ({
          killedAt: new Date(kills[sample.kill]!.at).toISOString(),
          worker: kills[sample.kill]!.worker,
          sessionId: sample.sessionId,
          category: sample.category,
          seconds: round1(sample.seconds),
        })),
    },
    longestStall,
    historiesNotReplaying: input.historiesNotReplaying,
    failedWorkflowTasks: input.failedWorkflowTasks,
    followers: followerFigures(completed),
    loadAverage: { start: input.loadStart, end: loadavg().map(round2), meanOneMinute: round2(meanLoad) },
  };
}

/** Checks each completed run's follower offset by offset: every offset from its first to its last, once, in order. */
function followerFigures(runs: RunRecord[]): FollowerFigures {
  const figures: FollowerFigures = { gaps: 0, duplicates: 0, outOfOrder: 0, eventsLost: 0, runs: [] };
  for (const run of runs) {
    const { offsets } = run;
    const distinct = new Set(offsets);
    const span = offsets.length === 0 ? 0 : Math.max(...offsets) - Math.min(...offsets) + 1;
    const gaps = span - distinct.size;
    const duplicates = offsets.length - distinct.size;
    const outOfOrder = offsets.filter((offset, index) => index > 0 && offset < offsets[index - 1]!).length;
    figures.gaps += gaps;
    figures.duplicates += duplicates;
    figures.outOfOrder += outOfOrder;
    figures.eventsLost += run.eventsLost;
    if (gaps + duplicates + outOfOrder > 0)
      figures.runs.push({ runId: run.runId, gaps, duplicates, outOfOrder });
  }
  return figures;
}

function print(result: ChaosResult): void {
  console.table([
    {
      sessions: result.sessions,
      "runs completed": result.runsCompleted,
      "runs lost": result.runsLost,
      "tool calls": result.toolCallsStarted,
      "repeated tool calls": result.completedToolCallsRepeated,
      "started twice": result.toolCallsStartedTwice,
      "histories not replaying": result.historiesNotReplaying.length,
      "failed workflow tasks": result.failedWorkflowTasks.length,
      "follower gaps": result.followers.gaps,
      "follower duplicates": result.followers.duplicates,
      kills: result.kills,
      "server restarts": result.serverRestarts,
      "recovery p50 s": result.recovery.p50,
      "recovery p99 s": result.recovery.p99,
      "heartbeat timeout s": result.heartbeatTimeoutSeconds.tool,
    },
  ]);
  console.table(
    Object.entries(result.recovery.byCategory).map(([category, figures]) => ({
      "recovery after a kill, sessions that were":
        category === "between" ? "between two calls" : `in a ${category} call`,
      sessions: figures.count,
      "p50 s": figures.p50,
      "p99 s": figures.p99,
      "max s": figures.max,
    })),
  );
  console.log(
    `runs started ${result.runsStarted} (${result.turnsPerRun} turns each; p50 ${result.runSecondsP50} s, ` +
      `p99 ${result.runSecondsP99} s); tool calls completed ${result.toolCallsCompleted}, interrupted ` +
      `${result.toolCallsInterrupted} (error results ${result.toolErrorResults}); model calls ${result.modelCalls}, ` +
      `retried ${result.modelCallsRetried}; kills every ${result.killIntervalMeanSeconds} s on average, ` +
      `${result.killIntervalBetweenRestartsSeconds} s between restarts ` +
      `(worker start p50 ${result.workerStartSeconds.p50} s, max ${result.workerStartSeconds.max} s); client errors retried ${result.clientErrorsRetried}; unplanned worker ` +
      `exits ${result.unplannedWorkerExits}; sessions unrecovered after a kill ${result.recovery.unrecovered}; ` +
      `outages ${result.outages.map((outage) => `${outage.seconds} s`).join(", ")}; longest stall outside ` +
      `outages ${result.longestStall?.seconds ?? 0} s (${result.longestStall?.sessionId ?? "-"}); ` +
      `total ${result.totalSeconds} s; load average ${result.loadAverage.start.join(" ")} → ` +
      `${result.loadAverage.end.join(" ")} (mean ${result.loadAverage.meanOneMinute})`,
  );
  for (const lost of result.lostRuns) console.log(`LOST ${JSON.stringify(lost)}`);
  for (const failed of result.historiesNotReplaying) console.log(`NOT REPLAYING ${JSON.stringify(failed)}`);
  for (const failed of result.failedWorkflowTasks) console.log(`FAILED TASK ${JSON.stringify(failed)}`);
  for (const run of result.followers.runs) console.log(`FOLLOWER ${JSON.stringify(run)}`);
}

/** The mean gap between consecutive kills that have no server outage between them (NaN without such a pair). */
function meanGapBetweenRestarts(kills: readonly Kill[], outages: readonly { downAt: number }[]): number {
  const gaps: number[] = [];
  for (let index = 1; index < kills.length; index++) {
    const [before, after] = [kills[index - 1]!.at, kills[index]!.at];
    if (!outages.some((outage) => outage.downAt > before && outage.downAt < after)) gaps.push(after - before);
  }
  return gaps.length === 0 ? NaN : gaps.reduce((total, gap) => total + gap, 0) / gaps.length / 1000;
}
