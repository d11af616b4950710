import { Client, Connection, type WorkflowClientInterceptor } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AgentClient, type DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/events.js";
import { defineTool } from "../../src/kernel/tools.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import type { ModelProvider } from "../../src/kernel/model.js";
import { redisDeltaTransport, temporalDeltaTransport } from "../../src/stream/delta-transport.js";
import { readStreamQuery } from "../../src/workflows/stream-messages.js";
import {
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

// A follower of a session in which nothing is in flight that could send live output or tool events (waiting for a
// person, a subagent, a tool that sends none) waits on the session's history (the server's long poll) instead of
// asking the worker every 200 ms (docs/decisions/0014).

let release: () => void = () => undefined;
const hold = defineTool({
  name: "hold",
  description: "waits until the test releases it",
  schema: z.object({}),
  execute: () => new Promise<string>((resolve) => (release = () => resolve("released"))),
});
const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded order ${order}`,
});

const agents = [
  defineAgent({ name: "asker", model: "asker", tools: [refund], permission: { ask: ["refund"] } }),
  defineAgent({ name: "holder", model: "holder", tools: [hold] }),
  defineAgent({
    name: "twice",
    model: "twice",
    tools: [refund],
    permission: { ask: ["refund"] },
    // Every turn boundary continues as new: the follower's place in the history moves to a new execution.
    durable: { continueAsNew: { maxHistoryEvents: 5 } },
  }),
];
const providers = {
  asker: conversationScript([
    toolCallTurn([{ id: "r1", name: "refund", input: { order: 7 } }]),
    textTurn("done"),
  ]),
  holder: conversationScript([toolCallTurn([{ id: "h1", name: "hold", input: {} }]), textTurn("held")]),
  twice: conversationScript([
    toolCallTurn([{ id: "a", name: "refund", input: { order: 1 } }]),
    toolCallTurn([{ id: "b", name: "refund", input: { order: 2 } }]),
    textTurn("both"),
  ]),
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("followers of a quiet session", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const streamReads = { count: 0 };
  const taskQueue = uniqueTaskQueue("quiet");

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, agents, providers });
    // Counts the client's `readStream` queries, each of which the session's worker answers.
    const counter: WorkflowClientInterceptor = {
      query: (input, next) => {
        if (input.queryType === readStreamQuery.name) streamReads.count++;
        return next(input);
      },
    };
    const connection = await Connection.connect({ address: temporalAddress() });
    const temporal = new Client({
      connection,
      namespace: inject("temporalNamespace"),
      interceptors: { workflow: [counter] },
    });
    client = new AgentClient(temporal, { taskQueue });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  /** Reads a run's events in the background; `until` resolves once a matching event has come. */
  function follow(started: { sessionId: string; runId: string; offset: number }) {
    const events: DurableEvent[] = [];
    const run = client.events(started.sessionId, started.runId, { fromOffset: started.offset });
    const done = (async () => {
      for (;;) {
        const next = await run.next();
        if (next.done) return next.value;
        events.push(next.value);
      }
    })();
    const until = async (test: (event: AgentEvent) => boolean) => {
      while (!events.some(test)) await sleep(20);
    };
    return { events, done, until };
  }

  it("the stream says quiet only while no model or tool call is in flight", async () => {
    const started = await client.start("holder", "hold on");
    const read = () => client.handle(started.sessionId).query(readStreamQuery, { from: 0 });
    const run = follow(started);
    await run.until((event) => event.type === "tool_call_start");
    // The tool's activity is running (it may send events): not quiet.
    await expect.poll(async () => (await read()).quiet, { timeout: 10_000 }).toBe(false);
    release();
    expect((await run.done)?.text).toBe("held");
    expect((await read()).quiet).toBe(true);
  });

  it("a follower waiting with a session for a person asks a few times, not every 200 ms, and misses nothing", async () => {
    const started = await client.start("asker", "refund order 7");
    const run = follow(started);
    await run.until((event) => event.type === "approval_request");
    expect((await client.handle(started.sessionId).query(readStreamQuery, { from: 0 })).quiet).toBe(true);
    const before = streamReads.count;
    await sleep(3_000);
    // Asking at the usual pace would be about 15 reads in 3 s (the back-off caps at 200 ms).
    expect(streamReads.count - before).toBeLessThanOrEqual(4);

    await client.approve(started.sessionId, "r1");
    const result = await run.done;
    expect(result?.text).toBe("done");
    const types = run.events.map((event) => event.type);
    expect(types.slice(types.indexOf("approval_request"))).toEqual(
      expect.arrayContaining(["permission_decision", "tool_call_end", "tool_result", "done"]),
    );
  });

  it("a follower waiting across a continue-as-new gets every event of both waits", async () => {
    const started = await client.start("twice", "two refunds");
    const run = follow(started);
    await run.until((event) => event.type === "approval_request");
    await sleep(1_000);
    await client.approve(started.sessionId, "a");
    await run.until((event) => event.type === "approval_request" && event.call.id === "b");
    const before = streamReads.count;
    await sleep(2_000);
    expect(streamReads.count - before).toBeLessThanOrEqual(4);
    await client.approve(started.sessionId, "b");
    expect((await run.done)?.text).toBe("both");
    const ends = run.events.filter((event) => event.type === "tool_call_end").map((event) => event.id);
    expect(ends).toEqual(["a", "b"]);
    const executions = await client.temporal.workflowService.listWorkflowExecutions({
      namespace: client.temporal.options.namespace,
      query: `WorkflowId = "${started.sessionId}"`,
    });
    // It did continue as new while the follower waited (one closed execution at least, besides the open one).
    expect(executions.executions?.length ?? 0).toBeGreaterThanOrEqual(2);
  });

  // Each stream listens on the client's close signal while it is read: no leak, so Node must not warn past ten.
  it("one client follows twelve waiting sessions together, with no listener-leak warning, each to its run's end", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const started = await Promise.all(
        Array.from({ length: 12 }, (_, index) => client.start("asker", `refund order ${index}`)),
      );
      const runs = started.map((run) => follow(run));
      // Every stream is open at once, each waiting for its session's approval request.
      await Promise.all(runs.map((run) => run.until((event) => event.type === "approval_request")));
      await Promise.all(started.map((run) => client.approve(run.sessionId, "r1")));
      const results = await Promise.all(runs.map((run) => run.done));
      expect(results.map((result) => result?.text)).toEqual(Array(12).fill("done"));
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

/**
 * Releases a streaming model's pieces one by one: the model streams piece `n + 1` only once the follower has seen
 * piece `n`. A follower that got the text only when the call ended would never see the first piece while the model
 * waits, and the test would time out; one that sees each piece before the next is made got the text live, however
 * slow the machine.
 */
class PieceGate {
  private readonly opened = new Map<number, () => void>();
  private readonly waits = new Map<number, Promise<void>>();

  /** Resolves once piece `piece` is released. */
  wait(piece: number): Promise<void> {
    let wait = this.waits.get(piece);
    if (!wait) {
      wait = new Promise<void>((resolve) => this.opened.set(piece, resolve));
      this.waits.set(piece, wait);
    }
    return wait;
  }

  /** Releases piece `piece`: the model may stream the next one. */
  release(piece: number): void {
    void this.wait(piece);
    this.opened.get(piece)!();
  }
}

const STREAM_PIECES = 12;
const pieceText = (piece: number) => `p${piece} `;
const STREAMED_TEXT = Array.from({ length: STREAM_PIECES }, (_, piece) => pieceText(piece)).join("");
/** The gate of the run being followed (each test starts one run). */
let gate = new PieceGate();
/** Streams `STREAM_PIECES` pieces of text, each once the follower has seen the one before ({@link PieceGate}). */
const gatedStreamer: ModelProvider = {
  id: "gated-streamer",
  async *stream() {
    for (let piece = 0; piece < STREAM_PIECES; piece++) {
      yield { type: "text_delta", text: pieceText(piece) };
      await gate.wait(piece);
    }
    yield {
      type: "message_done",
      message: { role: "assistant", content: STREAMED_TEXT },
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  },
};

describe("followers of a model call that streams", () => {
  const reads = { count: 0 };
  const streamer = defineAgent({ name: "streamer", model: "gated-streamer" });
  const workers: RunningWorker[] = [];
  let temporal: Client;
  const queues = { temporal: uniqueTaskQueue("stream-temporal"), redis: uniqueTaskQueue("stream-redis") };

  beforeAll(async () => {
    const redisUrl = inject("redisUrl");
    if (!redisUrl) throw new Error("no Redis for the test (see the global setup's log)");
    workers.push(
      await startTestWorker({
        taskQueue: queues.temporal,
        agents: [streamer],
        providers: { "gated-streamer": gatedStreamer },
        deltas: temporalDeltaTransport(),
      }),
      await startTestWorker({
        taskQueue: queues.redis,
        agents: [streamer],
        providers: { "gated-streamer": gatedStreamer },
        deltas: redisDeltaTransport(redisUrl),
      }),
    );
    const counter: WorkflowClientInterceptor = {
      query: (input, next) => {
        if (input.queryType === readStreamQuery.name) reads.count++;
        return next(input);
      },
    };
    const connection = await Connection.connect({ address: temporalAddress() });
    temporal = new Client({
      connection,
      namespace: inject("temporalNamespace"),
      interceptors: { workflow: [counter] },
    });
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
  });

  /**
   * Follows a streamed run, releasing each piece once the follower has seen it. While the model waits on the first
   * piece (in flight), asks whether the stream is quiet and, if `holdMs`, holds the model that long before releasing
   * it. Returns that answer, the reads made from then until the follower saw the last piece, and the text.
   */
  async function followStream(client: AgentClient, holdMs = 0) {
    gate = new PieceGate();
    const started = await client.start("streamer", "stream slowly");
    let text = "";
    let released = 0;
    let quiet: boolean | undefined;
    let readsAtFirstPiece = 0;
    let readsAtLastPiece = 0;
    for await (const event of client.events(started.sessionId, started.runId, {
      fromOffset: started.offset,
    })) {
      if (event.type !== "text_delta") continue;
      text += event.text;
      for (; released < STREAM_PIECES && text.includes(pieceText(released)); released++) {
        if (released === 0) {
          quiet = (await client.handle(started.sessionId).query(readStreamQuery, { from: 0 })).quiet;
          readsAtFirstPiece = reads.count;
          if (holdMs > 0) await sleep(holdMs);
        }
        if (released === STREAM_PIECES - 1) readsAtLastPiece = reads.count;
        gate.release(released);
      }
    }
    return { quiet, readsWhileStreaming: readsAtLastPiece - readsAtFirstPiece, text, released };
  }

  it("through the session, the stream is not quiet: the follower keeps asking and gets the text live", async () => {
    const client = new AgentClient(temporal, { taskQueue: queues.temporal, deltas: "temporal" });
    const { quiet, readsWhileStreaming, text, released } = await followStream(client);
    expect(quiet).toBe(false);
    // Every piece reached the follower before the model made the next one, in order and complete.
    expect(released).toBe(STREAM_PIECES);
    expect(text).toBe(STREAMED_TEXT);
    // Each later piece came by a read of the session made after it was streamed (less one read in flight at the
    // first piece): a follower that waited on the history instead would have read none.
    expect(readsWhileStreaming).toBeGreaterThanOrEqual(STREAM_PIECES - 2);
  });

  it("through Redis, the session's stream stays quiet: the follower reads Redis and not the session", async () => {
    const client = new AgentClient(temporal, {
      taskQueue: queues.redis,
      deltas: { redisUrl: inject("redisUrl") },
    });
    // The model holds its first piece for a second: a follower asking the session at its usual pace (200 ms at most
    // between reads) would read it five times or more meanwhile. A slower machine makes fewer reads, not more.
    const { quiet, readsWhileStreaming, text, released } = await followStream(client, 1_000);
    expect(quiet).toBe(true);
    expect(readsWhileStreaming).toBeLessThanOrEqual(2);
    // Every piece reached the follower, through Redis, before the model made the next one, in order and complete.
    expect(released).toBe(STREAM_PIECES);
    expect(text).toBe(STREAMED_TEXT);
  });
});
