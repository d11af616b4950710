import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { createAgent } from "../../src/agent.js";
import { defineAgent } from "../../src/define-agent.js";
import { localAgentConfig } from "../../src/local-agent-config.js";
import { compaction } from "../../src/kernel/compaction/compaction-middleware.js";
import { defaultCompactor } from "../../src/kernel/compaction/default-compactor.js";
import type { Message } from "../../src/kernel/vocabulary/messages.js";
import type { ContextPlannerInput, ContextProposal } from "../../src/kernel/context/types.js";
import { defineEffect, implementEffect } from "../../src/kernel/vocabulary/effects.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
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

/** A planner as an effect: summarises every candidate it is shown, and says which sessions asked. */
const planContext = defineEffect<ContextPlannerInput, ContextProposal>("plan_context", {
  retry: "idempotent",
});
const planned: string[] = [];
const planner = implementEffect(planContext, (input) => {
  planned.push(input.sessionId);
  return {
    segments: input.candidates.map((segment) => ({
      id: segment.id,
      action: "summarize" as const,
      summary: `summary of ${segment.id}`,
    })),
  };
});
const planning = defineAgent({
  name: "planning",
  model: "planning",
  context: { windowTokens: 1000, planner: planContext, plannerTimeoutMs: 60_000 },
  effects: [planner],
});
const planningScript = () =>
  conversationScript([textTurn("planned"), textTurn("planned"), textTurn("planned")]);
/** Two older exchanges and a new question: about 86% of the planning agent's window, so level 3 runs. */
const longConversation: Message[] = [
  { role: "user", content: "first" },
  { role: "assistant", content: "o".repeat(2400) },
  { role: "user", content: "second" },
  { role: "assistant", content: "p".repeat(1000) },
  { role: "user", content: "latest" },
];
/** compaction() of a built-in compactor in the definition's `use`. */
const budgeted = defineAgent({
  name: "budgeted",
  model: "scripted",
  tools: [fetchPage],
  use: [compaction(defaultCompactor({ keepRecentToolResults: 1 }))],
});

describe("the ContextEngine in durable runs", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("context");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [reader, planning, budgeted],
      providers: { scripted: script, planning: planningScript() },
    });
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

  it("asks a planner effect at level 3 (an activity), the same as in-process", async () => {
    const durable = await collect(
      client.run("planning", longConversation, { sessionId: "planning-durable" }),
    );
    const local = await collect(
      createAgent(localAgentConfig(planning, planningScript())).run(longConversation, {
        sessionId: "planning-local",
      }),
    );
    expect(durable.result.text).toBe("planned");
    const used = (events: AgentEvent[]) =>
      events.filter((e) => e.type === "context_status" && e.plannerUsed && !e.plannerFallback).length;
    expect(used(durable.events)).toBeGreaterThan(0);
    expect(used(durable.events)).toBe(used(local.events));
    expect(planned.filter((id) => id === "planning-durable")).toHaveLength(used(durable.events));
    const history = await client.session("planning-durable").workflow.fetchHistory();
    const effects = (history.events ?? []).filter(
      (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === "runEffect",
    );
    expect(effects).toHaveLength(used(durable.events));
  });

  it("compaction() of a built-in compactor in `use` runs in the workflow", async () => {
    const { events, result } = await collect(client.run("budgeted", "read two pages"));
    expect(result.text).toBe("summarised");
    const compactions = events.filter((e) => e.type === "compaction");
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ kind: "micro" });
  });
});
