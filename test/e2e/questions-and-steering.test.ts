import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { askUserTool } from "../../src/kernel/builtin-tools/ask-user-tool.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../../src/kernel/vocabulary/model.js";
import type { AbortSignalLike } from "../../src/kernel/vocabulary/ports.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { readStreamQuery } from "../../src/contract/stream/stream-messages.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

let releaseWork: () => void = () => undefined;
const work = defineTool({
  name: "work",
  description: "works until released",
  schema: z.object({}),
  execute: () => new Promise<string>((resolve) => (releaseWork = () => resolve("worked"))),
});

const asker = defineAgent({ name: "asker", model: "ask", tools: [askUserTool()] });
const worker1 = defineAgent({ name: "worker", model: "work", tools: [work] });
const thinker = defineAgent({
  name: "thinker",
  model: "think",
  durable: { modelRetry: { heartbeatTimeoutMs: 2_000 } },
});

const askScript = conversationScript([
  toolCallTurn([
    { id: "q1", name: "ask_user", input: { question: "Which colour?", options: ["red", "blue"] } },
  ]),
  textTurn("noted"),
]);
const workScript = conversationScript([
  toolCallTurn([{ id: "w1", name: "work", input: {} }]),
  textTurn("finished"),
]);

/** Streams slowly until cancelled, unless the conversation holds the steer that re-plans it. */
const slowThinker: ModelProvider = {
  id: "think",
  async *stream(request: ModelRequest, signal?: AbortSignalLike): AsyncIterable<ModelChunk> {
    const steered = request.messages.some((m) => m.content === "think faster");
    if (!steered) {
      for (;;) {
        yield { type: "text_delta", text: "hmm " };
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (signal?.aborted) throw new Error("cancelled");
      }
    }
    yield { type: "text_delta", text: "quick answer" };
    yield {
      type: "message_done",
      message: { role: "assistant", content: [{ type: "text", text: "quick answer" }] },
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  },
};

const isType =
  <T extends AgentEvent["type"]>(type: T) =>
  (event: AgentEvent): event is Extract<AgentEvent, { type: T }> =>
    event.type === type;

describe("questions, steering and interrupts in durable runs", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("humans");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [asker, worker1, thinker],
      providers: { ask: askScript, work: workScript, think: slowThinker },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("a question is answered and the answer becomes the tool result", async () => {
    const started = await client.start("asker", "pick a colour");
    const events: DurableEvent[] = [];
    for await (const event of client.session(started.sessionId).events(started.runId, {
      fromOffset: started.offset,
    })) {
      events.push(event);
      if (event.type === "input_request") {
        const status = await client.session(started.sessionId).describe();
        expect(status.status).toBe("awaiting_input");
        expect(status.pendingQuestions).toMatchObject([
          { callId: "q1", question: "Which colour?", options: ["red", "blue"] },
        ]);
        await expect(client.session(started.sessionId).answer("q1", { selected: ["green"] })).rejects.toThrow(
          /'green' is not one of the options: red, blue/,
        );
        await client.session(started.sessionId).answer("q1", { selected: ["blue"] }, { actor: "dana" });
      }
    }
    expect(events.find(isType("input_request"))).toMatchObject({
      question: { question: "Which colour?", options: ["red", "blue"] },
    });
    expect(events.find(isType("input_resolved"))).toMatchObject({ id: "q1", answer: { selected: ["blue"] } });
    expect(events.find(isType("tool_result"))).toMatchObject({ result: { id: "q1", content: "blue" } });
  });

  it("a steer sent during a tool call is applied at the next turn start", async () => {
    const started = await client.start("worker", "do the work");
    const events: DurableEvent[] = [];
    for await (const event of client.session(started.sessionId).events(started.runId, {
      fromOffset: started.offset,
    })) {
      events.push(event);
      if (event.type === "tool_call_start") {
        await client.session(started.sessionId).steer("also summarise it");
        releaseWork();
      }
    }
    const types = events.map((e) => e.type);
    const steerIndex = types.indexOf("steer");
    expect(types[steerIndex - 1]).toBe("turn_start");
    expect(events[steerIndex]).toMatchObject({ messages: [{ role: "user", content: "also summarise it" }] });
    const status = await client.session(started.sessionId).describe();
    expect(status.messageCount).toBe(5);
  });

  it("an interrupt cancels the in-flight model call and re-plans at once with the steer", async () => {
    const started = await client.start("thinker", "think");
    const events: DurableEvent[] = [];
    let interrupted: boolean | undefined;
    for await (const event of client.session(started.sessionId).events(started.runId, {
      fromOffset: started.offset,
    })) {
      events.push(event);
      if (event.type === "text_delta" && interrupted === undefined)
        interrupted = await client.session(started.sessionId).interrupt("think faster");
    }
    expect(interrupted).toBe(true);
    const types = events.filter((e) => e.type !== "text_delta").map((e) => e.type);
    expect(types).toEqual([
      "turn_start",
      "model_call_start",
      "model_call_end",
      "turn_end",
      "turn_start",
      "steer",
      "model_call_start",
      "model_call_end",
      "message",
      "turn_end",
      "done",
    ]);
    expect(events.find(isType("model_call_end"))).toMatchObject({ error: "interrupted" });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop", result: { text: "quick answer" } });
  });

  it("an interrupt with no model call in flight returns false and changes nothing", async () => {
    const started = await client.start("asker", "pick again");
    const events: DurableEvent[] = [];
    for await (const event of client.session(started.sessionId).events(started.runId, {
      fromOffset: started.offset,
    })) {
      events.push(event);
      if (event.type === "input_request") {
        expect(await client.session(started.sessionId).interrupt()).toBe(false);
        await client.session(started.sessionId).answer("q1", "red");
      }
    }
    expect(events.find(isType("tool_result"))).toMatchObject({ result: { content: "red" } });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
  });
});

/**
 * Quick tool call, then a call that thinks until cancelled unless steered: the interrupt lands on the run's second
 * model call, whose cancellation scope the first one left (without live output through the session nothing cancels
 * it between calls), and the call after the interrupt needs a scope of its own.
 */
const lateThinker: ModelProvider = {
  id: "late-think",
  async *stream(request: ModelRequest, signal?: AbortSignalLike): AsyncIterable<ModelChunk> {
    const usage = { inputTokens: 1, outputTokens: 1 };
    if (request.messages.length === 1) {
      const { message } = toolCallTurn([{ id: "n1", name: "note", input: {} }]);
      yield { type: "message_done", message, usage };
      return;
    }
    if (request.messages.some((m) => m.content === "think faster")) {
      yield { type: "message_done", message: textTurn("quick answer").message, usage };
      return;
    }
    while (!signal?.aborted) await new Promise((resolve) => setTimeout(resolve, 50));
    throw new Error("cancelled");
  },
};
const note = defineTool({ name: "note", description: "notes", schema: z.object({}), execute: () => "noted" });
const lateAgent = defineAgent({
  name: "late-thinker",
  model: "late-think",
  tools: [note],
  durable: { modelRetry: { heartbeatTimeoutMs: 2_000 } },
});

describe("an interrupt of a later model call of a run (no live output through the session)", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("late-interrupt");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [lateAgent],
      providers: { "late-think": lateThinker },
      deltas: false,
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("cancels only that call, and the calls after it run", async () => {
    const started = await client.start("late-thinker", "think");
    const events: DurableEvent[] = [];
    let interrupted: boolean | undefined;
    let callStarts = 0;
    for await (const event of client.session(started.sessionId).events(started.runId, {
      fromOffset: started.offset,
    })) {
      events.push(event);
      if (event.type === "model_call_start" && ++callStarts === 2)
        interrupted = await interruptOnceInFlight(client, started.sessionId);
    }
    expect(interrupted).toBe(true);
    const ends = events.filter(isType("model_call_end"));
    expect(ends).toHaveLength(3);
    expect(ends[0]).not.toHaveProperty("error");
    expect(ends[1]).toMatchObject({ error: "interrupted" });
    expect(ends[2]).not.toHaveProperty("error");
    expect(events.find(isType("tool_result"))).toMatchObject({ result: { content: "noted" } });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop", result: { text: "quick answer" } });
  });

  it("tells readers that no end marker of live output will come (a Redis reader waited 5 s a call)", async () => {
    const run = await client.start("late-thinker", "think faster");
    for await (const event of client.session(run.sessionId).events(run.runId, { fromOffset: run.offset }))
      if (event.type === "done") break;
    const { items } = await client.session(run.sessionId).workflow.query(readStreamQuery, { from: 0 });
    const calls = items.filter((item) => item.entry.modelCall !== undefined);
    expect(calls.map((item) => item.entry.event.type)).toContain("model_call_end");
    for (const item of calls) expect(item.entry.liveOutput).toBe(false);
  });
});

/** Interrupts with the steer once the session says a model call is in flight (it may not have started yet). */
async function interruptOnceInFlight(client: AgentClient, sessionId: string): Promise<boolean> {
  for (let tries = 0; tries < 100; tries++) {
    if (await client.session(sessionId).interrupt("think faster")) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
