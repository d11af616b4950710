import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { createAgent, defineAgent, defineTool, fakeProvider, type AgentEvent } from "../../src/index.js";
import { localAgentConfig } from "../../src/local-agent-config.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { startTestWorker, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";
import { DELTA_TRANSPORTS, transportClient } from "../support/delta-transports.js";

const progress = (id: string, n: number): AgentEvent => ({
  type: "diagnostic",
  level: "info",
  code: "progress",
  message: `${id}:${n}`,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Emits a few events while it works. */
const steps = defineTool({
  name: "steps",
  description: "works in steps",
  schema: z.object({}),
  execute: async (_input, ctx) => {
    for (let n = 0; n < 3; n++) {
      ctx.emit(progress(ctx.call!.id, n));
      await sleep(120);
    }
    return "stepped";
  },
});
/** Emits many events at once. */
const chatty = defineTool({
  name: "chatty",
  description: "reports a lot",
  schema: z.object({}),
  execute: (_input, ctx) => {
    for (let n = 0; n < 300; n++) ctx.emit(progress(ctx.call!.id, n));
    return "chatted";
  },
});
/** Idempotent: its first durable attempt emits two events, then hangs past its timeout; the retry emits all three. */
const hungKeys = new Set<string>();
const flaky = defineTool({
  name: "flaky",
  description: "hangs once",
  schema: z.object({}),
  retry: "idempotent",
  timeoutMs: 2_000,
  execute: async (_input, ctx) => {
    const firstAttempt = ctx.idempotencyKey !== undefined && !hungKeys.has(ctx.idempotencyKey);
    if (firstAttempt) hungKeys.add(ctx.idempotencyKey!);
    for (let n = 0; n < 3; n++) {
      if (firstAttempt && n === 2) {
        await sleep(4_000);
        return "too late";
      }
      ctx.emit(progress(ctx.call!.id, n));
      await sleep(50);
    }
    return "done at last";
  },
});

const agent = defineAgent({ name: "emitter", model: "emitter", tools: [steps, chatty, flaky] });
const script = () =>
  fakeProvider([
    toolCallTurn([
      { id: "s1", name: "steps", input: {} },
      { id: "c1", name: "chatty", input: {} },
      { id: "f1", name: "flaky", input: {} },
    ]),
    textTurn("all done"),
  ]);

/** Per call: its progress events in the order seen, and whether each came between its start and its end. */
function progressByCall(events: AgentEvent[]): Record<string, { messages: string[]; inside: boolean }> {
  const out: Record<string, { messages: string[]; inside: boolean }> = {};
  const open = new Set<string>();
  for (const event of events) {
    if (event.type === "tool_call_start") open.add(event.call.id);
    if (event.type === "tool_call_end") open.delete(event.id);
    if (event.type === "diagnostic" && event.code === "progress") {
      const id = event.message.split(":")[0]!;
      const call = (out[id] ??= { messages: [], inside: true });
      call.messages.push(event.message);
      call.inside &&= open.has(id);
    }
  }
  return out;
}

const expected = (id: string, count: number) => ({
  messages: Array.from({ length: count }, (_, n) => `${id}:${n}`),
  inside: true,
});

// Tool events travel in the tool activity's heartbeats whatever carries model output (docs/decisions/0021).
describe.each(DELTA_TRANSPORTS)("events a tool emits inside its activity ($name transport)", (transport) => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("tool-events");

  beforeAll(async () => {
    const deltas = transport.worker();
    worker = await startTestWorker({
      taskQueue,
      agents: [agent],
      providers: { emitter: script() },
      ...(deltas ? { deltas } : {}),
    });
    client = await transportClient(taskQueue, transport);
  });
  afterAll(async () => {
    await client?.close();
    await worker?.stop();
  });

  it("reach client.run in order between the call's start and end, once each across a retry, as in process", async () => {
    const durable: AgentEvent[] = [];
    for await (const event of client.run("emitter", "go", { sessionId: `tool-events-${Date.now()}` }))
      durable.push(event);
    expect(durable.at(-1)).toMatchObject({ type: "done", reason: "stop" });
    expect(durable.find((e) => e.type === "tool_result" && e.result.id === "f1")).toMatchObject({
      result: { content: "done at last" },
    });
    const want = { s1: expected("s1", 3), c1: expected("c1", 300), f1: expected("f1", 3) };
    expect(progressByCall(durable)).toEqual(want);

    const local: AgentEvent[] = [];
    for await (const event of createAgent(localAgentConfig(agent, script())).run("go")) local.push(event);
    expect(progressByCall(local)).toEqual(want);
  }, 60_000);
});
