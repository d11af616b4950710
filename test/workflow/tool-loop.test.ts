import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../src/agent.js";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { localAgentConfig } from "../../src/local-agent-config.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { collect } from "../support/collect.js";
import { eventShape as shape } from "../support/event-shape.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const add = defineTool({
  name: "add",
  description: "adds two numbers",
  schema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const shout = defineTool({
  name: "shout",
  description: "upper-cases",
  schema: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});

const script = () =>
  conversationScript([
    {
      ...toolCallTurn([
        { id: "c1", name: "add", input: { a: 2, b: 3 } },
        { id: "c2", name: "shout", input: { text: "hi" } },
      ]),
      usage: { inputTokens: 10, outputTokens: 5 },
    },
    {
      ...toolCallTurn([{ id: "c3", name: "add", input: { a: 5, b: 10 } }]),
      usage: { inputTokens: 20, outputTokens: 5 },
    },
    { ...textTurn("The answer is 15 and HI."), usage: { inputTokens: 30, outputTokens: 8 } },
  ]);

const calculator = defineAgent({
  name: "calculator",
  model: "scripted",
  tools: [add, shout],
  system: "You add.",
});
/** The same agent with a system prompt over the inline limit: its requests must travel by reference. */
const verbose = defineAgent({
  name: "verbose",
  model: "scripted",
  tools: [add, shout],
  system: `You add. ${"Be careful. ".repeat(2_000)}`,
});

/** Event types with consecutive deltas merged, and without timing fields. */
describe("durable tool loop", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("tool-loop");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [calculator, verbose],
      providers: { scripted: script() },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("yields the same events as the in-process run of the same agent", async () => {
    const local = await collect(createAgent(localAgentConfig(calculator, script())).run("what is 2+3+10?"));
    const durable = await collect(client.run("calculator", "what is 2+3+10?"));
    expect(shape(durable.events)).toEqual(shape(local.events));
    expect(durable.result.text).toBe("The answer is 15 and HI.");
    expect(durable.result.stopReason).toBe("stop");
    expect(durable.result.usage).toEqual({ inputTokens: 60, outputTokens: 18 });
  });

  it("records one activity per model call and per tool call, with the retry policies of their class", async () => {
    const started = await client.start("calculator", "again: 2+3+10?");
    await collect(client.session(started.sessionId).events(started.runId, { fromOffset: started.offset }));
    const history = await client.session(started.sessionId).workflow.fetchHistory();
    const scheduled = (history.events ?? []).flatMap((event) =>
      event.activityTaskScheduledEventAttributes ? [event.activityTaskScheduledEventAttributes] : [],
    );
    const byType = (name: string) => scheduled.filter((attributes) => attributes.activityType?.name === name);
    expect(byType("callModel")).toHaveLength(3);
    expect(byType("executeTool")).toHaveLength(3);
    for (const tool of byType("executeTool")) expect(tool.retryPolicy?.maximumAttempts).toBe(1);
    for (const model of byType("callModel")) expect(model.retryPolicy?.maximumAttempts).toBe(8);
  });

  it("passes a large request by reference (the activity reads it with a query) and a small one inline", async () => {
    const inputs = async (agent: string) => {
      const started = await client.start(agent, "2+3+10?");
      const { result } = await collect(
        client.session(started.sessionId).events(started.runId, { fromOffset: started.offset }),
      );
      expect(result.text).toBe("The answer is 15 and HI.");
      const history = await client.session(started.sessionId).workflow.fetchHistory();
      return (history.events ?? []).flatMap((event) => {
        const attributes = event.activityTaskScheduledEventAttributes;
        if (attributes?.activityType?.name !== "callModel") return [];
        return [
          JSON.parse(Buffer.from(attributes.input!.payloads![0]!.data!).toString("utf8")) as Record<
            string,
            unknown
          >,
        ];
      });
    };
    const large = await inputs("verbose");
    expect(large).toHaveLength(3);
    for (const input of large) expect(input).not.toHaveProperty("request");
    // The first call goes by reference; the next ones as small changes of the previous request (same system prompt).
    expect(large[0]).not.toHaveProperty("delta");
    for (const input of large.slice(1)) {
      expect(input).toHaveProperty("delta");
      expect(JSON.stringify(input).length).toBeLessThan(4_000);
    }
    const small = await inputs("calculator");
    for (const input of small) expect(input).toHaveProperty("request");
  });
});
