import { describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent.js";
import { defineAgent } from "../../../src/define-agent.js";
import { localAgentConfig } from "../../../src/local-agent-config.js";
import { budgetOverrun, usageCost } from "../../../src/kernel/vocabulary/budget.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { conversationScript } from "../../../src/testing/conversation-script.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { z } from "zod";
import { collect } from "../../support/collect.js";

const USAGE = { inputTokens: 100, outputTokens: 50 };
const noop = defineTool({
  name: "noop",
  description: "does nothing",
  schema: z.object({}),
  execute: () => "ok",
});
const loop = () =>
  conversationScript(
    Array.from({ length: 5 }, (_, i) => ({
      ...toolCallTurn([{ id: `n${i}`, name: "noop", input: {} }]),
      usage: USAGE,
    })),
  );

describe("budgets", () => {
  it("a run over its token budget ends with stop reason budget and a budget_exceeded event, before the next call", async () => {
    const agent = defineAgent({ name: "b", model: "m", tools: [noop], budget: { maxRunTokens: 300 } });
    const { events, result } = await collect(createAgent(localAgentConfig(agent, loop())).run("go"));
    expect(result.stopReason).toBe("budget");
    expect(result.usage).toEqual({ inputTokens: 200, outputTokens: 100 });
    expect(events.filter((event) => event.type === "model_call_end")).toHaveLength(2);
    expect(events.find((event) => event.type === "budget_exceeded")).toEqual({
      type: "budget_exceeded",
      limit: "run_tokens",
      used: 300,
      max: 300,
    });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "budget" });
  });

  it("costs use the model's price; session limits count what the session spent before", () => {
    const price = { inputPerMillion: 2, outputPerMillion: 8 };
    expect(usageCost(USAGE, price)).toBe(0.0006);
    expect(budgetOverrun({ maxRunCost: 0.001, price }, USAGE)).toBeUndefined();
    expect(budgetOverrun({ maxRunCost: 0.001, price }, { inputTokens: 200, outputTokens: 100 })).toEqual({
      limit: "run_cost",
      used: 0.0012,
      max: 0.001,
    });
    expect(
      budgetOverrun({ maxSessionTokens: 1000, spent: { inputTokens: 700, outputTokens: 200 } }, USAGE),
    ).toEqual({
      limit: "session_tokens",
      used: 1050,
      max: 1000,
    });
    // A cost limit without a price for the model cannot apply.
    expect(budgetOverrun({ maxRunCost: 0 }, USAGE)).toBeUndefined();
    expect(budgetOverrun({}, USAGE)).toBeUndefined();
  });

  it("without a budget a run is not limited by one", async () => {
    const agent = defineAgent({ name: "b", model: "m", tools: [noop], maxTurns: 5 });
    const script = conversationScript([
      ...Array.from({ length: 4 }, (_, i) => ({
        ...toolCallTurn([{ id: `n${i}`, name: "noop", input: {} }]),
        usage: USAGE,
      })),
      textTurn("done"),
    ]);
    const { result } = await collect(createAgent(localAgentConfig(agent, script)).run("go"));
    expect(result.stopReason).toBe("stop");
  });
});
