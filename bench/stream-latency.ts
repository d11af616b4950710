import { Client, Connection, type WorkflowClientInterceptor } from "@temporalio/client";
import { AgentClient, type AgentClientOptions } from "../src/client.js";
import { defineAgent } from "../src/define-agent.js";
import type { ModelChunk, ModelProvider } from "../src/kernel/vocabulary/model.js";
import {
  redisDeltaTransport,
  temporalDeltaTransport,
  type DeltaTransport,
} from "../src/stream/delta-transport.js";
import { createWorker } from "../src/worker.js";
import { runWorker, type DurableBenchEnv } from "./durable-bench-env.js";
import { eventBytes, eventTypeName, type HistoryEvent } from "./history-profile.js";
import { readStreamQuery } from "../src/contract/stream/stream-messages.js";

/** Latency and history cost of live streaming, for one transport. */
export interface StreamLatencyResult {
  transport: string;
  chunks: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /**
   * History bytes the streaming adds per 1,000 streamed tokens (one token per chunk): the streamed run's history
   * less that of the same run answered at once without streaming.
   */
  historyBytesPer1000Tokens: number;
  /** History events of the streamed run and of the same run without streaming (the difference is streaming's). */
  historyEvents: { streamed: number; silent: number };
  /**
   * Signal and update events of the streamed run and of the silent one: live output sent as signals or accepted
   * updates would show as more in the streamed run (both have the accepted `startRun` update).
   */
  signalAndUpdateEvents: { streamed: number; silent: number };
  /**
   * `readStream` queries the following client made per second of the streamed run (each costs the session's worker
   * a few milliseconds of CPU, docs/decisions/0014); with Redis, the reads of the session's events only.
   */
  streamReadsPerSecond: number;
}

const CHUNKS = 400;
const INTERVAL_MS = 10;

/** Streams CHUNKS tokens, each carrying the time it was produced, one every INTERVAL_MS. */
function stampingModel(id: string): ModelProvider {
  return {
    id,
    async *stream(): AsyncIterable<ModelChunk> {
      let text = "";
      for (let index = 0; index < CHUNKS; index++) {
        const token = `<${(performance.timeOrigin + performance.now()).toFixed(3)}>`;
        text += token;
        yield { type: "text_delta", text: token };
        await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
      }
      yield {
        type: "message_done",
        message: { role: "assistant", content: [{ type: "text", text }] },
        usage: { inputTokens: 1, outputTokens: CHUNKS },
      };
    },
  };
}

/** A model that answers at once with the same token count, to measure the history of a run without streaming. */
function silentModel(id: string): ModelProvider {
  return {
    id,
    async *stream(): AsyncIterable<ModelChunk> {
      const text = "<0000000000000.000>".repeat(CHUNKS);
      yield {
        type: "message_done",
        message: { role: "assistant", content: [{ type: "text", text }] },
        usage: { inputTokens: 1, outputTokens: CHUNKS },
      };
    },
  };
}

async function sessionHistory(client: AgentClient, sessionId: string): Promise<HistoryEvent[]> {
  return (await client.session(sessionId).workflow.fetchHistory()).events ?? [];
}

function signalsAndUpdates(events: HistoryEvent[]): number {
  return events.filter((event) => /^WORKFLOW_EXECUTION_(SIGNALED|UPDATE_)/.test(eventTypeName(event))).length;
}

function historyBytes(events: HistoryEvent[]): number {
  return events.reduce((sum, event) => sum + eventBytes(event), 0);
}

/** One streamed run: per-token latency from the provider's chunk to the client's text_delta, and history bytes. */
type ClientDeltas = NonNullable<AgentClientOptions["deltas"]>;

async function measure(
  env: DurableBenchEnv,
  name: string,
  transport: DeltaTransport,
  deltas: ClientDeltas,
): Promise<{
  latencies: number[];
  streamed: HistoryEvent[];
  silent: HistoryEvent[];
  readsPerSecond: number;
}> {
  const taskQueue = `bench-stream-${name}-${Date.now()}`;
  const agents = [
    defineAgent({ name: "streamer", model: "stamping" }),
    defineAgent({ name: "silent", model: "silent" }),
  ];
  const worker = await createWorker({
    agents,
    providers: { stamping: stampingModel("stamping"), silent: silentModel("silent") },
    taskQueue,
    connection: env.connection,
    namespace: env.endpoint.namespace,
    deltas: transport,
  });
  const running = runWorker(worker);
  const connection = await Connection.connect({ address: env.endpoint.address });
  const reads = { count: 0 };
  const counter: WorkflowClientInterceptor = {
    query: (input, next) => {
      if (input.queryType === readStreamQuery.name) reads.count++;
      return next(input);
    },
  };
  const temporal = new Client({
    connection,
    namespace: env.endpoint.namespace,
    interceptors: { workflow: [counter] },
  });
  const client = new AgentClient(temporal, {
    deltas,
    taskQueue,
  });
  try {
    const latencies: number[] = [];
    const started = await client.start("streamer", "stream");
    const startedAt = performance.now();
    reads.count = 0;
    for await (const event of client.session(started.sessionId).events(started.runId, {
      fromOffset: started.offset,
    })) {
      if (event.type !== "text_delta") continue;
      const now = performance.timeOrigin + performance.now();
      for (const match of event.text.matchAll(/<(\d+\.\d+)>/g)) latencies.push(now - Number(match[1]));
    }
    const readsPerSecond = reads.count / ((performance.now() - startedAt) / 1000);
    const silent = await client.start("silent", "answer");
    for await (const _event of client
      .session(silent.sessionId)
      .events(silent.runId, { fromOffset: silent.offset }));
    return {
      latencies,
      streamed: await sessionHistory(client, started.sessionId),
      silent: await sessionHistory(client, silent.sessionId),
      readsPerSecond,
    };
  } finally {
    await connection.close();
    await running.stop();
  }
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
}

/** Latency p50/p99 and history bytes per 1,000 streamed tokens, for the Temporal-native and (when available) Redis transports. */
export async function benchStreamLatency(
  env: DurableBenchEnv,
  redisUrl: string | undefined,
): Promise<StreamLatencyResult[]> {
  const transports: [string, () => DeltaTransport, ClientDeltas][] = [
    ["temporal-native", temporalDeltaTransport, "temporal"],
  ];
  if (redisUrl) transports.push(["redis", () => redisDeltaTransport(redisUrl), { redisUrl }]);
  const results: StreamLatencyResult[] = [];
  for (const [name, transport, deltas] of transports) {
    const { latencies, streamed, silent, readsPerSecond } = await measure(env, name, transport(), deltas);
    const sorted = [...latencies].sort((a, b) => a - b);
    // The silent session is the same run without streaming: the difference is what streaming costs.
    const bytes = historyBytes(streamed) - historyBytes(silent);
    results.push({
      transport: name,
      chunks: latencies.length,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: percentile(sorted, 100),
      historyBytesPer1000Tokens: Math.round((bytes / CHUNKS) * 1000),
      historyEvents: { streamed: streamed.length, silent: silent.length },
      signalAndUpdateEvents: { streamed: signalsAndUpdates(streamed), silent: signalsAndUpdates(silent) },
      streamReadsPerSecond: Math.round(readsPerSecond * 10) / 10,
    });
  }
  return results;
}
