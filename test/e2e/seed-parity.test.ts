import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import {
  askUserTool,
  assistantMessage,
  defineAgent,
  defineTool,
  fakeProvider,
  textBlock,
} from "../../src/index.js";
import { toolCallTurn } from "../../src/testing/builders.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const named = (name: string) =>
  defineTool({ name, description: `the ${name} tool`, schema: z.object({}), execute: () => name });

// Registered out of order: the requests list them sorted all the same.
const agent = defineAgent({
  name: "parity",
  model: "parity",
  tools: [named("zeta"), askUserTool(), named("alpha")],
});
const model = fakeProvider([
  toolCallTurn([{ id: "q1", name: "ask_user", input: { question: "How long?" } }]),
  { message: assistantMessage([textBlock("a very long answer that")]), stopReason: "max_tokens" },
]);

describe("seed parity in durable runs", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("parity");

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, agents: [agent], providers: { parity: model } });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("the public askUserTool asks durably, tools reach the model sorted by name, a cut-off answer ends its turn max_tokens", async () => {
    const sessionId = `parity-${Date.now()}`;
    const events: DurableEvent[] = [];
    for await (const event of client.run("parity", "explain", { sessionId })) {
      events.push(event);
      if (event.type === "input_request") await client.session(sessionId).answer(event.call.id, "long");
    }
    expect(events.find((event) => event.type === "tool_result")).toMatchObject({
      result: { id: "q1", content: "long" },
    });
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) {
      expect(request.tools!.map((tool) => tool.name)).toEqual(["alpha", "ask_user", "zeta"]);
    }
    const turnEnds = events.filter((event) => event.type === "turn_end").map((event) => event.stopReason);
    expect(turnEnds).toEqual(["tool_use", "max_tokens"]);
    expect(events.at(-1)).toMatchObject({
      type: "done",
      reason: "stop",
      result: { text: "a very long answer that" },
    });
  });
});
