import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { textTurn } from "../../src/testing/builders.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { collect } from "../support/collect.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const PRICE = { inputPerMillion: 2, outputPerMillion: 8 };
/** Every answer costs 150 tokens; the session may spend 400. */
const budgeted = defineAgent({
  name: "budgeted",
  model: "budgeted",
  budget: { maxSessionTokens: 400, prices: { budgeted: PRICE } },
});
const model = fakeProvider([{ ...textTurn("An answer."), usage: { inputTokens: 100, outputTokens: 50 } }], {
  onExhausted: "repeat-last",
});

describe("budgets in durable sessions", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("budgets");

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, agents: [budgeted], providers: { budgeted: model } });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("a session over its token budget stops its next run before any model call; status shows usage and cost", async () => {
    const sessionId = `budget-${Date.now()}`;
    const reasons: string[] = [];
    for (let run = 0; run < 3; run++) {
      const { result } = await collect(client.run("budgeted", `question ${run}`, { sessionId }));
      reasons.push(result.stopReason);
    }
    // 150, 300, 450 tokens: each run began under 400, the third crossed it.
    expect(reasons).toEqual(["stop", "stop", "stop"]);
    const calls = model.requests.length;
    const { events, result } = await collect(client.run("budgeted", "one more", { sessionId }));
    expect(result.stopReason).toBe("budget");
    expect(model.requests).toHaveLength(calls);
    expect(events.find((event) => event.type === "budget_exceeded")).toMatchObject({
      limit: "session_tokens",
      used: 450,
      max: 400,
    });
    const status = await client.describe(sessionId);
    expect(status.usage).toEqual({ inputTokens: 300, outputTokens: 150 });
    expect(status.cost).toBe(0.0018);
    expect(status.status).toBe("idle");
  });
});
