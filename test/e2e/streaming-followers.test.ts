import { Client, Connection, type WorkflowClientInterceptor } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { ModelProvider } from "../../src/kernel/vocabulary/model.js";
import { redisDeltaTransport, temporalDeltaTransport } from "../../src/stream/delta-transport.js";
import { readStreamQuery } from "../../src/contract/stream/stream-messages.js";
import {
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

// Followers of a model call that streams: through the session, the stream is not quiet and the follower reads the
// live output from it; through Redis, the session stays quiet and the follower reads Redis (docs/decisions/0014).

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    for await (const event of client.session(started.sessionId).events(started.runId, {
      fromOffset: started.offset,
    })) {
      if (event.type !== "text_delta") continue;
      text += event.text;
      for (; released < STREAM_PIECES && text.includes(pieceText(released)); released++) {
        if (released === 0) {
          quiet = (await client.session(started.sessionId).workflow.query(readStreamQuery, { from: 0 }))
            .quiet;
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
