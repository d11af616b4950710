import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import type { WorkflowHandle } from "@temporalio/client";
import { tsToMs } from "@temporalio/common/lib/time.js";
import { AgentClient } from "../src/client.js";
import { defineAgent } from "../src/define-agent.js";
import { createWorker } from "../src/worker.js";
import { pageReader, pageTool } from "../test/support/tool-loop-model.js";
import { runWorker, type DurableBenchEnv } from "./durable-bench-env.js";
import { eventBytes, eventTypeName, scheduledActivityType, type HistoryEvent } from "./history-profile.js";

/** Turns of the run (`LONG_RUN_TURNS`, default 5,000): a 2 KB tool result on every turn but the last. */
const TURNS = Number(process.env.LONG_RUN_TURNS ?? 5_000);
/** The turns at which the per-turn history is sampled (those up to TURNS). */
const SAMPLE_TURNS = [10, 100, 1_000, 5_000];
/** Turns per sample window. */
const WINDOW = 10;
const PAGE_CHARS = 2_048;

/** One execution (continue-as-new generation) of the session. */
export interface ExecutionSize {
  runId: string;
  /** The server's count (`describe().historySize`). */
  historySizeBytes: number;
  historyLength: number;
  /** Sum of the protobuf-encoded sizes of the execution's events. */
  encodedBytes: number;
  /** Model calls scheduled in this execution (one per turn). */
  modelCalls: number;
  endedBy: string;
  /** The longest workflow task of the execution (started → completed, from the event times), and its end event id. */
  longestWorkflowTask: { ms: number; eventId: number };
}

/** History written per turn over the WINDOW turns before turn `turn` starts. */
export interface TurnSample {
  turn: number;
  /** Turns measured: from the scheduling of model call `fromTurn` to that of model call `turn`. */
  fromTurn: number;
  bytesPerTurn: number;
  eventsPerTurn: number;
  /** The window holds a continue-as-new (the old execution's last events and the new one's first). */
  crossesContinueAsNew: boolean;
}

/** One 5,000-turn run, with or without a client following it. */
export interface LongRunCase {
  following: boolean;
  turns: number;
  /** turn_start events the following client saw (following only). */
  turnStartsSeen?: number;
  seconds: number;
  msPerTurn: number;
  loadAverageAtStart: number[];
  loadAverageAtEnd: number[];
  executions: ExecutionSize[];
  /** Executions the visibility store lists for the session (a cross-check of the continue-as-new chain). */
  executionsListed: number;
  totalBytes: number;
  totalEvents: number;
  /** totalBytes / turns: everything, continue-as-new included. */
  bytesPerTurnOverall: number;
  /** Mean historySizeBytes of the executions that ended by continuing as new. */
  bytesPerFullExecution: number;
  samples: TurnSample[];
  /** Per-turn bytes at the last sampled turn over those at turn 10 (goal ≤ 1.2). */
  ratioLastOverTurn10: number;
}

/** What the long-run history benchmark measured. */
export interface LongRunHistoryResult {
  turns: number;
  toolResultBytes: number;
  measure: string;
  notFollowing: LongRunCase;
  following: LongRunCase;
  /** Following over not following, per sampled turn and overall (goal ≤ 1.2). */
  followingOverNotFollowing: { turn: number | "overall"; ratio: number }[];
}

const page = pageTool(PAGE_CHARS);

/** Zero latency, decided by the request alone: calls `page` until the conversation holds TURNS - 1 results. */
const reader = () => pageReader(TURNS);

// The plan's continue-as-new thresholds are the defaults (10,000 events / 4 MB).
const agent = defineAgent({ name: "bench-long-run", model: "scripted", tools: [page], maxTurns: TURNS + 10 });

/**
 * History bytes per turn of one run of TURNS turns (2 KB tool results, zero-latency model) at turns 10, 100, 1,000
 * and 5,000, summed over the session's executions, once with nobody following the run and once with a client
 * following it to the end. Worker and client use the default payload storage (the filesystem), as shipped.
 */
export async function benchLongRunHistory(env: DurableBenchEnv): Promise<LongRunHistoryResult> {
  const notFollowing = await runCase(env, false);
  const following = await runCase(env, true);
  const ratios = following.samples.map((sample, index) => ({
    turn: sample.turn as number | "overall",
    ratio: round(sample.bytesPerTurn / notFollowing.samples[index]!.bytesPerTurn, 100),
  }));
  ratios.push({
    turn: "overall",
    ratio: round(following.bytesPerTurnOverall / notFollowing.bytesPerTurnOverall, 100),
  });
  return {
    turns: TURNS,
    toolResultBytes: PAGE_CHARS,
    measure:
      `bytes per turn at turn N: protobuf-encoded HistoryEvent bytes written between the scheduling of model call ` +
      `N-${WINDOW} and model call N, over ${WINDOW} (the turns before N starts), the session's executions in order`,
    notFollowing,
    following,
    followingOverNotFollowing: ratios,
  };
}

async function runCase(env: DurableBenchEnv, following: boolean): Promise<LongRunCase> {
  const taskQueue = `bench-long-run-${randomUUID().slice(0, 8)}`;
  const worker = runWorker(
    await createWorker({
      agents: [agent],
      providers: { scripted: reader() },
      taskQueue,
      connection: env.connection,
      namespace: env.endpoint.namespace,
    }),
  );
  const client = await AgentClient.connect({
    address: env.endpoint.address,
    namespace: env.endpoint.namespace,
    taskQueue,
  });
  const sessionId = `bench-long-run-${following ? "following" : "alone"}-${randomUUID().slice(0, 8)}`;
  try {
    const loadAverageAtStart = loadavg().map((value) => round(value, 100));
    const startedAt = performance.now();
    const started = await client.start(agent.name, "read every page", { sessionId });
    const { runId: firstExecution } = await client.session(sessionId).workflow.describe();
    let turnStartsSeen: number | undefined;
    if (following) {
      turnStartsSeen = 0;
      const events = client.session(sessionId).events(started.runId, { fromOffset: started.offset });
      for (;;) {
        const next = await events.next();
        if (next.done) {
          if (next.value.stopReason !== "stop")
            throw new Error(`the run ended with ${next.value.stopReason}`);
          break;
        }
        if (next.value.type === "turn_start") turnStartsSeen++;
        if (next.value.type === "turn_start" && next.value.turn % 1_000 === 0)
          progress(following, next.value.turn);
      }
    } else {
      let lastReported = 0;
      for (;;) {
        const status = await client.session(sessionId).describe();
        if (status.runsCompleted >= 1) break;
        if (status.status === "failed") throw new Error(`the run failed: ${status.failure?.message}`);
        const turn = status.currentRun?.turn ?? 0;
        if (turn >= lastReported + 1_000) progress(following, (lastReported = turn - (turn % 1_000)));
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const loadAverageAtEnd = loadavg().map((value) => round(value, 100));
    const status = await client.session(sessionId).describe();
    if (status.turns !== TURNS) throw new Error(`the run took ${status.turns} turns, expected ${TURNS}`);
    const chain = await executionChain(client, sessionId, firstExecution);
    let executionsListed = 0;
    for await (const _info of client.temporal.workflow.list({ query: `WorkflowId = "${sessionId}"` }))
      executionsListed++;
    return {
      following,
      turns: TURNS,
      ...(turnStartsSeen !== undefined ? { turnStartsSeen } : {}),
      seconds: round(seconds, 10),
      msPerTurn: round((seconds * 1000) / TURNS, 10),
      loadAverageAtStart,
      loadAverageAtEnd,
      executionsListed,
      ...measureChain(chain),
    };
  } finally {
    await client
      .session(sessionId)
      .workflow.terminate("long-run benchmark: measured")
      .catch(() => undefined);
    await client.close();
    await worker.stop();
  }
}

function progress(following: boolean, turn: number): void {
  console.error(
    `bench long-run-history (${following ? "following" : "nobody following"}): turn ${turn}, load ${loadavg()[0]!.toFixed(2)}`,
  );
}

interface Execution {
  runId: string;
  events: HistoryEvent[];
  historySizeBytes: number;
  historyLength: number;
}

/** The session's executions in order, from the first, following each continue-as-new to the next run id. */
async function executionChain(
  client: AgentClient,
  sessionId: string,
  firstRunId: string,
): Promise<Execution[]> {
  const chain: Execution[] = [];
  for (let runId: string | undefined = firstRunId; runId;) {
    const handle: WorkflowHandle = client.temporal.workflow.getHandle(sessionId, runId);
    const described = await handle.describe();
    const events: HistoryEvent[] = (await handle.fetchHistory()).events ?? [];
    chain.push({
      runId,
      events,
      historySizeBytes: described.historySize ?? 0,
      historyLength: described.historyLength ?? events.length,
    });
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return chain;
}

function measureChain(
  chain: Execution[],
): Pick<
  LongRunCase,
  | "executions"
  | "totalBytes"
  | "totalEvents"
  | "bytesPerTurnOverall"
  | "bytesPerFullExecution"
  | "samples"
  | "ratioLastOverTurn10"
> {
  // Cumulative bytes before each event of the whole chain, the index of each model call, and where executions start.
  const cumulative: number[] = [0];
  const modelCalls: number[] = [];
  const executionStarts: number[] = [];
  const executions: ExecutionSize[] = [];
  for (const execution of chain) {
    executionStarts.push(cumulative.length - 1);
    let encodedBytes = 0;
    let calls = 0;
    for (const event of execution.events) {
      const bytes = eventBytes(event);
      if (scheduledActivityType(event) === "callModel") {
        modelCalls.push(cumulative.length - 1);
        calls++;
      }
      cumulative.push(cumulative.at(-1)! + bytes);
      encodedBytes += bytes;
    }
    executions.push({
      runId: execution.runId,
      historySizeBytes: execution.historySizeBytes,
      historyLength: execution.historyLength,
      encodedBytes,
      modelCalls: calls,
      endedBy: eventTypeName(execution.events.at(-1) ?? {}),
      longestWorkflowTask: longestWorkflowTask(execution.events),
    });
  }
  if (modelCalls.length !== TURNS)
    throw new Error(`expected ${TURNS} model calls over the executions, found ${modelCalls.length}`);
  /** Bytes before model call `turn` (1-based) is scheduled. */
  const before = (turn: number) => cumulative[modelCalls[turn - 1]!]!;
  const samples = SAMPLE_TURNS.filter((turn) => turn < TURNS)
    .concat(TURNS)
    .map((turn): TurnSample => {
      const fromTurn = Math.max(1, turn - WINDOW);
      const turns = turn - fromTurn;
      const [start, end] = [modelCalls[fromTurn - 1]!, modelCalls[turn - 1]!];
      return {
        turn,
        fromTurn,
        bytesPerTurn: Math.round((before(turn) - before(fromTurn)) / turns),
        eventsPerTurn: round((end - start) / turns, 10),
        crossesContinueAsNew: executionStarts.some((index) => index > start && index <= end),
      };
    });
  const full = executions.filter((execution) => execution.endedBy === "WORKFLOW_EXECUTION_CONTINUED_AS_NEW");
  const totalBytes = cumulative.at(-1)!;
  return {
    executions,
    totalBytes,
    totalEvents: cumulative.length - 1,
    bytesPerTurnOverall: Math.round(totalBytes / TURNS),
    bytesPerFullExecution: full.length
      ? Math.round(full.reduce((sum, execution) => sum + execution.historySizeBytes, 0) / full.length)
      : 0,
    samples,
    ratioLastOverTurn10: round(samples.at(-1)!.bytesPerTurn / samples[0]!.bytesPerTurn, 100),
  };
}

function longestWorkflowTask(events: HistoryEvent[]): { ms: number; eventId: number } {
  const startedAt = new Map(events.map((event) => [Number(event.eventId), tsToMs(event.eventTime)]));
  let longest = { ms: 0, eventId: 0 };
  for (const event of events) {
    const completed = event.workflowTaskCompletedEventAttributes;
    if (!completed) continue;
    const ms = tsToMs(event.eventTime) - (startedAt.get(Number(completed.startedEventId)) ?? 0);
    if (ms > longest.ms) longest = { ms, eventId: Number(event.eventId) };
  }
  return longest;
}

function round(value: number, scale: number): number {
  return Math.round(value * scale) / scale;
}
