import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { AgentClient } from "../src/client.js";
import { DEFAULT_MAX_CACHED_SESSIONS } from "../src/worker.js";
import type { DurableBenchEnv } from "./durable-bench-env.js";
import { ACTIVE_TURNS, IDLE_MEMORY_AGENT } from "./idle-memory-agent.js";

const ACTIVE_SESSIONS = 100;
/** Idle sessions are created this many at a time. */
const CREATE_CONCURRENCY = 40;
/** The worker heap limit of the scenarios that set one: V8 then collects evicted sessions' garbage sooner. */
const WORKER_HEAP_MB = 512;
/** How long the approval session is watched waiting (D: its history must not grow). */
const APPROVAL_WAIT_MS = 30_000;

/** One scenario: a fresh worker process, `idle` idle sessions, then ACTIVE_SESSIONS concurrent 10-turn runs. */
export interface IdleMemoryScenario {
  name: string;
  idleSessions: number;
  /** The worker's workflow cache size (maxCachedWorkflows). */
  maxCachedWorkflows: number;
  /** Worker RSS once polling, before any session. */
  baselineRssMb: number;
  /** Worker RSS once the idle sessions exist and the worker has settled. */
  idleRssMb: number;
  /** Sessions in the worker's cache then. */
  cachedSessionsWhenIdle: number;
  /** Peak worker RSS over the whole scenario (sampled every 100 ms, and the kernel's VmHWM). */
  peakRssMb: number;
  /** Seconds to create the idle sessions (one one-turn run each). */
  idleCreationSeconds: number;
  /** Turns per second of the ACTIVE_SESSIONS concurrent runs (wall time from the first start to the last result). */
  activeTurnsPerSecond: number;
  activeSeconds: number;
  cachedSessionsAfterActive: number;
  /** D: a session waiting for an approval while everything else runs. */
  approval?: ApprovalWait;
}

/** D: a session waiting for an approval: history events before and after the wait, and whether it resumes. */
export interface ApprovalWait {
  waitedSeconds: number;
  historyEventsAtStart: number;
  historyEventsAfterWait: number;
  /** The run finished after the approval (the session was replayed if it had been evicted). */
  resumedAfterApproval: boolean;
}

/** What the idle-memory benchmark measured. */
export interface IdleMemoryResult {
  activeSessions: number;
  turnsPerRun: number;
  scenarios: IdleMemoryScenario[];
}

/**
 * Worker memory per idle session and throughput with many idle sessions (DESIGN.md §3: idle sessions do not pin
 * worker memory). Each scenario runs a fresh worker process (bench/idle-memory-worker.ts) whose RSS is sampled from
 * /proc: 100 and 1,000 idle with createWorker's default cache, the same with a worker heap limit, and 1,000 idle with
 * Temporal's default cache size (what createWorker used before it sized the cache). The 1,000-idle scenario also
 * holds a session waiting for an approval (its history must not grow while it waits).
 */
export async function benchIdleMemory(env: DurableBenchEnv): Promise<IdleMemoryResult> {
  const heap = `--max-old-space-size=${WORKER_HEAP_MB}`;
  const specs: ScenarioSpec[] = [
    { name: "100 idle", idle: 100, cache: "default" },
    { name: "1,000 idle", idle: 1_000, cache: "default", approval: true },
    { name: `100 idle, ${heap}`, idle: 100, cache: "default", nodeOptions: heap },
    { name: `1,000 idle, ${heap}`, idle: 1_000, cache: "default", nodeOptions: heap },
    { name: "1,000 idle, Temporal's default cache size", idle: 1_000, cache: "sdk" },
  ];
  const scenarios: IdleMemoryScenario[] = [];
  for (const spec of specs) scenarios.push(await runScenario(env, spec));
  return { activeSessions: ACTIVE_SESSIONS, turnsPerRun: ACTIVE_TURNS, scenarios };
}

/** One scenario of the benchmark. */
export interface ScenarioSpec {
  name: string;
  idle: number;
  /** `maxCachedSessions` of the worker: createWorker's default, a number, or Temporal's default ("sdk"). */
  cache: "default" | "sdk" | number;
  approval?: boolean;
  /** NODE_OPTIONS of the worker process (e.g. a heap limit). */
  nodeOptions?: string;
}

/** Runs one scenario in a fresh worker process. */
export async function runScenario(env: DurableBenchEnv, spec: ScenarioSpec): Promise<IdleMemoryScenario> {
  const taskQueue = `bench-idle-${randomUUID().slice(0, 8)}`;
  const cache = spec.cache === "default" ? String(DEFAULT_MAX_CACHED_SESSIONS) : String(spec.cache);
  const worker = await startWorkerProcess(env, taskQueue, cache, spec.nodeOptions);
  const sampler = sampleRss(worker.child.pid!);
  try {
    const client = new AgentClient(env.client, { taskQueue, deltas: "temporal" });
    const baselineRssMb = rssMb(worker.child.pid!).rss;
    const approval = spec.approval ? await startApprovalSession(client) : undefined;
    const created = performance.now();
    await inBatches(spec.idle, CREATE_CONCURRENCY, () => client.send(IDLE_MEMORY_AGENT, "idle"));
    const idleCreationSeconds = round((performance.now() - created) / 1000);
    await sleep(3_000);
    const idleRssMb = rssMb(worker.child.pid!).rss;
    const cachedSessionsWhenIdle = (await worker.status()).cachedSessions;
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: ACTIVE_SESSIONS }, () => client.send(IDLE_MEMORY_AGENT, "work")),
    );
    const activeSeconds = (performance.now() - started) / 1000;
    const turns = results.reduce((sum, result) => sum + turnsOf(result.messages), 0);
    const cachedSessionsAfterActive = (await worker.status()).cachedSessions;
    const approvalWait = approval ? await finishApproval(client, approval) : undefined;
    const peak = Math.max(sampler.stop(), rssMb(worker.child.pid!).hwm);
    return {
      name: spec.name,
      idleSessions: spec.idle,
      maxCachedWorkflows: worker.maxCachedWorkflows,
      baselineRssMb,
      idleRssMb,
      cachedSessionsWhenIdle,
      peakRssMb: peak,
      idleCreationSeconds,
      activeTurnsPerSecond: round(turns / activeSeconds),
      activeSeconds: round(activeSeconds),
      cachedSessionsAfterActive,
      ...(approvalWait ? { approval: approvalWait } : {}),
    };
  } finally {
    sampler.stop();
    await worker.stop();
  }
}

/** Model calls of a run: one assistant message each. */
function turnsOf(messages: { role: string }[]): number {
  return messages.filter((message) => message.role === "assistant").length;
}

interface PendingApproval {
  sessionId: string;
  runId: string;
  callId: string;
  historyEventsAtStart: number;
  since: number;
}

/** Starts a session whose run waits for an approval; returns once it waits (and its history length then). */
async function startApprovalSession(client: AgentClient): Promise<PendingApproval> {
  const started = await client.start(IDLE_MEMORY_AGENT, "approve");
  const events = client.session(started.sessionId).events(started.runId, { fromOffset: started.offset });
  for (;;) {
    const next = await events.next();
    if (next.done) throw new Error("the approval run ended before it asked");
    if (next.value.type !== "approval_request") continue;
    await events.return(undefined as never);
    await sleep(2_000); // the client's last stream poll settles
    const described = await client.session(started.sessionId).workflow.describe();
    return {
      sessionId: started.sessionId,
      runId: started.runId,
      callId: next.value.call.id,
      historyEventsAtStart: described.historyLength,
      since: performance.now(),
    };
  }
}

/** Waits out the rest of APPROVAL_WAIT_MS, reads the history length, approves, and waits for the run's end. */
async function finishApproval(client: AgentClient, pending: PendingApproval): Promise<ApprovalWait> {
  await sleep(Math.max(0, APPROVAL_WAIT_MS - (performance.now() - pending.since)));
  const waitedSeconds = round((performance.now() - pending.since) / 1000);
  const historyEventsAfterWait = (await client.session(pending.sessionId).workflow.describe()).historyLength;
  await client.session(pending.sessionId).approve(pending.callId, { actor: "bench" });
  const events = client.session(pending.sessionId).events(pending.runId);
  let resumedAfterApproval = false;
  for (;;) {
    const next = await events.next();
    if (next.done) {
      resumedAfterApproval = next.value.stopReason === "stop";
      break;
    }
  }
  return {
    waitedSeconds,
    historyEventsAtStart: pending.historyEventsAtStart,
    historyEventsAfterWait,
    resumedAfterApproval,
  };
}

interface WorkerProcess {
  child: ChildProcess;
  maxCachedWorkflows: number;
  status(): Promise<{ cachedSessions: number; heapUsedMb: number; externalMb: number }>;
  stop(): Promise<void>;
}

/** Starts bench/idle-memory-worker.ts as its own process and waits until it polls. */
async function startWorkerProcess(
  env: DurableBenchEnv,
  taskQueue: string,
  cache: string,
  nodeOptions: string | undefined,
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/idle-memory-worker.ts"], {
    cwd: new URL("..", import.meta.url).pathname,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: env.endpoint.address,
      TEMPORAL_NAMESPACE: env.endpoint.namespace,
      TASK_QUEUE: taskQueue,
      MAX_CACHED_SESSIONS: cache,
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const waiters: ((line: string) => void)[] = [];
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let end: number;
    while ((end = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      waiters.shift()?.(line);
    }
  });
  const nextLine = () => new Promise<string>((resolve) => waiters.push(resolve));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = await Promise.race([
    nextLine(),
    exited.then(() => Promise.reject(new Error("the idle-memory worker exited before it was ready"))),
  ]);
  const { maxCachedWorkflows } = JSON.parse(ready.replace(/^ready /, "")) as { maxCachedWorkflows: number };
  return {
    child,
    maxCachedWorkflows,
    async status() {
      const line = nextLine();
      child.stdin!.write("status\n");
      return JSON.parse((await line).replace(/^status /, "")) as Awaited<ReturnType<WorkerProcess["status"]>>;
    },
    async stop() {
      child.stdin!.end();
      const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
function rssMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) / 1024;
  return { rss: Math.round(field("VmRSS")), hwm: Math.round(field("VmHWM")) };
}

/** Samples a process's RSS every 100 ms; `stop()` returns the peak seen. */
function sampleRss(pid: number): { stop(): number } {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid).rss);
    } catch {
      // The process is gone.
    }
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

async function inBatches(count: number, concurrency: number, task: () => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next++;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
