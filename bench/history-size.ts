import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AgentClient } from "../src/client.js";
import { defineAgent } from "../src/define-agent.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../src/kernel/vocabulary/model.js";
import type { AbortSignalLike } from "../src/kernel/vocabulary/ports.js";
import { AbortError } from "../src/kernel/vocabulary/errors.js";
import { defineTool } from "../src/kernel/vocabulary/tools.js";
import { createWorker, temporalDeltaTransport } from "../src/worker.js";
import { runWorker, type DurableBenchEnv } from "./durable-bench-env.js";
import {
  eventBytes,
  eventTypeName,
  profileHistory,
  scheduledActivityType,
  type HistoryEvent,
} from "./history-profile.js";
import type { StartedRun } from "../src/client.js";
import { startSessionRun } from "./start-session-run.js";

/** Turns measured; the run has one more, a short final answer, so every measured turn has the same shape. */
const MEASURED_TURNS = 100;
const SAMPLES = [10, 100] as const;
const MESSAGE_BYTES = 2048;

/** The history at one turn boundary. */
export interface HistorySample {
  turn: number;
  /** History bytes up to the end of this turn (before the next model call is scheduled). */
  historyBytes: number;
  /** historyBytes / turn. */
  bytesPerTurnAverage: number;
  /** Bytes the last 5 turns up to this one added, per turn (one turn alone is noisy: stream polls batch events). */
  bytesPerTurnNow: number;
}

/** The history of one 100-turn run in one request mode. */
export interface HistoryModeResult {
  mode: "by-reference" | "inline";
  samples: HistorySample[];
  /** Bytes of turns 1-100 by event type, largest first. */
  byType: { type: string; count: number; bytes: number }[];
  /** Events of turns 1-100. */
  events: number;
  /** Whether the execution continued as new within the measurement (it must not). */
  continuedAsNew: boolean;
  msPerTurn: number;
}

/** What the history-size benchmark measured. */
export interface HistorySizeResult {
  messageBytes: number;
  /** How bytes are counted. */
  measure: string;
  byReference: HistoryModeResult;
  inline: HistoryModeResult;
}

/** A ~2 KB text, different each turn. */
function filler(label: string, turn: number): string {
  const line = `${label} for turn ${turn}: the quick brown fox jumps over the lazy dog. `;
  return line.repeat(Math.ceil(MESSAGE_BYTES / line.length)).slice(0, MESSAGE_BYTES);
}

/**
 * Answers ~2 KB of text and a tool call on each of the first 100 turns (counted from the request). The 101st call
 * waits until it is cancelled (the session is terminated once measured), so nothing after turn 100 (the run's end,
 * a continue-as-new) touches the measured execution.
 */
function chattyModel(): ModelProvider {
  return {
    id: "chatty",
    async *stream(request: ModelRequest, signal?: AbortSignalLike): AsyncIterable<ModelChunk> {
      const turn = request.messages.filter((message) => message.role === "assistant").length + 1;
      if (turn > MEASURED_TURNS) await untilAborted(signal, 120_000);
      const text = filler("answer", turn);
      yield { type: "text_delta", text };
      const content = [
        { type: "text" as const, text },
        { type: "tool_call" as const, id: `c${turn}`, name: "lookup", input: { turn } },
      ];
      yield {
        type: "message_done",
        message: { role: "assistant", content },
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
}

/** Waits until the call is cancelled (it then fails as cancelled), or gives up after `ms`. */
function untilAborted(signal: AbortSignalLike | undefined, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(new AbortError("cancelled"))), {
      once: true,
    });
  });
}

const lookup = defineTool({
  name: "lookup",
  description: "returns ~2 KB of text",
  schema: z.object({ turn: z.number() }),
  execute: ({ turn }) => filler("tool result", turn),
});
const agent = defineAgent({
  name: "bench-history",
  model: "chatty",
  tools: [lookup],
  maxTurns: MEASURED_TURNS + 1,
  durable: {
    continueAsNew: { maxHistoryEvents: 1_000_000, maxRunsPerExecution: 1_000 },
    // Heartbeats every 0.5 s, so the waiting 101st call learns of the termination at once.
    modelRetry: { heartbeatTimeoutMs: 1_500 },
  },
});

/**
 * History bytes per turn of a session whose model and tool exchange ~2 KB messages, after turn 10 and turn 100,
 * with model requests passed by reference (the default) and inline. A client follows the run's events, as in
 * real use. Bytes are the protobuf-encoded sizes of the execution's `HistoryEvent`s.
 */
export async function benchHistorySize(env: DurableBenchEnv): Promise<HistorySizeResult> {
  const taskQueue = `bench-history-${randomUUID().slice(0, 8)}`;
  const options = { connection: env.connection, namespace: env.endpoint.namespace, taskQueue };
  const worker = runWorker(
    await createWorker({
      ...options,
      agents: [agent],
      providers: { chatty: chattyModel() },
      deltas: temporalDeltaTransport(),
    }),
  );
  try {
    const client = new AgentClient(env.client, { taskQueue, deltas: "temporal" });
    return {
      messageBytes: MESSAGE_BYTES,
      measure:
        "sum of protobuf-encoded HistoryEvent sizes (temporal.api.history.v1.HistoryEvent.encode) of the session's first execution",
      byReference: await measureMode(client, false),
      inline: await measureMode(client, true),
    };
  } finally {
    await worker.stop();
  }
}

async function measureMode(client: AgentClient, inlineRequests: boolean): Promise<HistoryModeResult> {
  const started = performance.now();
  const run = await startSessionRun(client, agent.name, "go", { inlineRequests });
  const handle = client.temporal.workflow.getHandle(run.sessionId);
  // Before the run can end, so this is the execution the run happens in.
  const { runId: executionId } = await handle.describe();
  try {
    await followUntilTurn(client, run, MEASURED_TURNS + 1);
    const ms = performance.now() - started;
    const events = await historyThroughTurn(client, run.sessionId, executionId, MEASURED_TURNS);
    const boundaries = turnBoundaries(events);
    const profile = profileHistory(events.slice(0, boundaries[MEASURED_TURNS]));
    return {
      mode: inlineRequests ? "inline" : "by-reference",
      samples: SAMPLES.map((turn) => sample(events, boundaries, turn)),
      byType: Object.entries(profile.byType)
        .map(([type, entry]) => ({ type, ...entry }))
        .sort((a, b) => b.bytes - a.bytes),
      events: profile.events,
      continuedAsNew: events.some((event) => eventTypeName(event) === "WORKFLOW_EXECUTION_CONTINUED_AS_NEW"),
      msPerTurn: Math.round((ms / MEASURED_TURNS) * 100) / 100,
    };
  } finally {
    await handle.terminate("history benchmark: measured").catch(() => undefined);
  }
}

/** Follows the run's events, as a client would, until the given turn starts. */
async function followUntilTurn(client: AgentClient, run: StartedRun, turn: number): Promise<void> {
  const events = client.session(run.sessionId).events(run.runId, { fromOffset: run.offset });
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) throw new Error(`the run ended (${next.value.stopReason}) before turn ${turn}`);
      if (next.value.type === "turn_start" && next.value.turn === turn) return;
    }
  } finally {
    await events.return(undefined as never);
  }
}

/** The execution's history once it holds the model call that follows `turns` turns. */
async function historyThroughTurn(
  client: AgentClient,
  sessionId: string,
  executionId: string,
  turns: number,
): Promise<HistoryEvent[]> {
  for (let attempt = 0; ; attempt++) {
    const history = await client.temporal.workflow.getHandle(sessionId, executionId).fetchHistory();
    const events = history.events ?? [];
    if (modelCallIndexes(events).length > turns) return events;
    if (attempt === 50) throw new Error(`the history never reached model call ${turns + 1}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function modelCallIndexes(events: HistoryEvent[]): number[] {
  return events.flatMap((event, index) => (scheduledActivityType(event) === "callModel" ? [index] : []));
}

/**
 * Index k holds the index of the event that schedules model call k+1: everything before it belongs to turns 1..k
 * (index 0: the session start, before the first model call).
 */
function turnBoundaries(events: HistoryEvent[]): number[] {
  const boundaries = modelCallIndexes(events);
  if (boundaries.length !== MEASURED_TURNS + 1)
    throw new Error(
      `expected ${MEASURED_TURNS + 1} model calls in one execution, found ${boundaries.length}`,
    );
  return boundaries;
}

function sample(events: HistoryEvent[], boundaries: number[], turn: number): HistorySample {
  const bytesBefore = (boundary: number) =>
    events.slice(0, boundaries[boundary]).reduce((sum, event) => sum + eventBytes(event), 0);
  const historyBytes = bytesBefore(turn);
  const window = Math.min(5, turn);
  return {
    turn,
    historyBytes,
    bytesPerTurnAverage: Math.round(historyBytes / turn),
    bytesPerTurnNow: Math.round((historyBytes - bytesBefore(turn - window)) / window),
  };
}
