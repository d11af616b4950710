import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { textTurn } from "../../src/testing/builders.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { sessionRow } from "../../src/cli/render/session-rows.js";
import type { SessionListing } from "../../src/client/list-sessions.js";
import { collect } from "../support/collect.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const PRICE = { inputPerMillion: 2, outputPerMillion: 8 };
/** Every answer costs 150 tokens; the session may spend 400. */
const budgeted = defineAgent({
  name: "budgeted",
  model: "budgeted",
  budget: { maxSessionTokens: 400, prices: { budgeted: PRICE } },
});
/** The same agent with a budget that prices another model only. */
const unpriced = defineAgent({
  name: "unpriced",
  model: "budgeted",
  budget: { maxSessionTokens: 10_000, prices: { "another-model": PRICE } },
});
const model = fakeProvider([{ ...textTurn("An answer."), usage: { inputTokens: 100, outputTokens: 50 } }], {
  onExhausted: "repeat-last",
});

async function firstListing(client: AgentClient, sessionId: string): Promise<SessionListing | undefined> {
  for await (const listing of client.list({ query: `WorkflowId = "${sessionId}"` })) return listing;
  return undefined;
}

describe("budgets in durable sessions", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("budgets");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [budgeted, unpriced],
      providers: { budgeted: model },
    });
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
    const runId = (events[0] as DurableEvent).runId;
    expect(result.stopReason).toBe("budget");
    expect(model.requests).toHaveLength(calls);
    expect(events.find((event) => event.type === "budget_exceeded")).toMatchObject({
      limit: "session_tokens",
      used: 450,
      max: 400,
    });
    const status = await client.session(sessionId).describe();
    expect(status.usage).toEqual({ inputTokens: 300, outputTokens: 150 });
    expect(status.cost).toBe(0.0018);
    expect(status.status).toBe("idle");
    // The stop is visible where operators look: the status (`show`) and the UI's current details.
    expect(status.budgetStop).toEqual({
      runId: runId,
      limit: "session_tokens",
      used: 450,
      max: 400,
    });
    const metadata = await client
      .session(sessionId)
      .workflow.query<{ currentDetails?: string }>("__temporal_workflow_metadata");
    expect(metadata.currentDetails).toContain("**Cost** 0.0018");
    expect(metadata.currentDetails).toContain(
      `**Last run stopped at its budget** (run \`${runId}\`): session tokens 450 of 400`,
    );
    // The cost is a search attribute too: `list` shows it and a visibility query filters on it.
    const costOf = async (query: string) => {
      for await (const listing of client.list({ query })) {
        if (listing.sessionId === sessionId) return sessionRow(listing).cost;
      }
      return undefined;
    };
    await expect.poll(() => costOf("AgentCost > 0.0015"), { timeout: 15_000, interval: 250 }).toBe(0.0018);
    expect(await costOf("AgentCost > 0.002")).toBeUndefined();
  });

  it("a session whose model has no price upserts no cost", async () => {
    const sessionId = `unpriced-${Date.now()}`;
    await collect(client.run("unpriced", "a question", { sessionId }));
    await expect
      .poll(
        async () => {
          for await (const listing of client.list({ query: "AgentTurns >= 1" })) {
            if (listing.sessionId === sessionId) return listing.searchAttributes;
          }
          return undefined;
        },
        { timeout: 15_000, interval: 250 },
      )
      .toMatchObject({ AgentTokens: [150] });
    const listing = await firstListing(client, sessionId);
    expect(listing?.searchAttributes.AgentCost).toBeUndefined();
    expect((await client.session(sessionId).describe()).cost).toBeUndefined();
  });
});
