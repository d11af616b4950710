import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/events.js";
import { defineTool } from "../../src/kernel/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { collect } from "../support/collect.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const fetchPage = defineTool({
  name: "fetch_page",
  description: "returns a long page",
  schema: z.object({ n: z.number() }),
  execute: ({ n }) => `page ${n}: ${"lorem ipsum ".repeat(120)}`,
});
const reader = defineAgent({
  name: "reader",
  model: "scripted",
  tools: [fetchPage],
  context: { windowTokens: 1_200 },
});
const script = conversationScript([
  toolCallTurn([{ id: "p1", name: "fetch_page", input: { n: 1 } }]),
  toolCallTurn([{ id: "p2", name: "fetch_page", input: { n: 2 } }]),
  textTurn("summarised"),
]);

describe("the ContextEngine in durable runs", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("context");

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, agents: [reader], providers: { scripted: script } });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("runs inside the workflow: context_status events, and results the model has seen are externalised", async () => {
    const { events, result } = await collect(client.run("reader", "read two pages"));
    expect(result.text).toBe("summarised");
    const statuses = events.filter(
      (e): e is Extract<AgentEvent, { type: "context_status" }> => e.type === "context_status",
    );
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status.level >= 1)).toBe(true);
    const requests = script.requests.slice(-1);
    expect(JSON.stringify(requests[0]!.messages)).toContain("[tool result externalized after use]");
  });
});
