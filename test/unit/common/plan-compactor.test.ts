import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { checkCompactionPlan } from "../../../src/plan/check-compaction-plan.js";
import { planCompactor } from "../../../src/plan/plan-compactor.js";
import { defineAgent, toAgentPlan } from "../../../src/define-agent.js";
import { localAgentConfig } from "../../../src/local-agent-config.js";
import { SUMMARY_HEADER } from "../../../src/kernel/compaction/llm-compactor.js";
import { ZERO_USAGE } from "../../../src/kernel/vocabulary/model.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect } from "../../support/collect.js";
import { bodyOf, scriptedProvider, toolTurn } from "../compaction/fixtures.js";

const big = "x".repeat(400); // 100 tokens

/** Six tool turns of 100-token results: about 600 tokens. */
const conversation = () =>
  Array.from({ length: 6 }, (_, index) => toolTurn(`q${index}`, `c${index}`, big)).flat();

describe("planCompactor", () => {
  it("default: below the threshold nothing changes; above it the model-free passes run", async () => {
    const summaries = { provider: scriptedProvider([]), model: "m" };
    const messages = conversation();
    const below = await planCompactor(
      { strategy: "default", tokenThreshold: 10_000 },
      summaries,
    ).maybeCompact(messages, ZERO_USAGE);
    expect(below.messages).toBe(messages);
    const above = await planCompactor(
      { strategy: "default", tokenThreshold: 100, keepRecentToolResults: 1 },
      summaries,
    ).maybeCompact(messages, ZERO_USAGE);
    expect(above.kind).toBe("micro");
    expect(bodyOf(above.messages[2])).toBe("[tool result omitted to save context]");
    expect(bodyOf(above.messages.at(-1))).toBe(big);
    expect(summaries.provider.requests).toHaveLength(0);
  });

  it("llm: summarises every older turn with the summary model and prompt, keeping the newest turns verbatim", async () => {
    const provider = scriptedProvider([{ text: "they asked six questions" }]);
    const compactor = planCompactor(
      {
        strategy: "llm",
        tokenThreshold: 100,
        keepRecentTurns: 2,
        summaryModel: "cheap",
        summaryPrompt: "Be brief.",
      },
      { provider, model: "main" },
    );
    const messages = conversation();
    const result = await compactor.maybeCompact(messages, ZERO_USAGE);
    expect(result.kind).toBe("auto");
    expect(result.messages[0]).toEqual({
      role: "user",
      content: `${SUMMARY_HEADER}\nthey asked six questions`,
    });
    // The two newest turns, the same objects.
    expect(result.messages.slice(1)).toEqual(messages.slice(-6));
    expect(result.messages[1]).toBe(messages.at(-6));
    const [request] = provider.requests;
    expect(request?.model).toBe("cheap");
    expect(request?.system).toBe("Be brief.");
    // Nothing was snipped before the summary: the oldest turn is in the summary request.
    expect(JSON.stringify(request?.messages)).toContain("q0");
  });

  it("llm: without summaryModel the agent's model writes the summary; below the threshold no call is made", async () => {
    const provider = scriptedProvider([{ text: "summary" }]);
    const compactor = planCompactor(
      { strategy: "llm", tokenThreshold: 100_000 },
      { provider, model: "main" },
    );
    const messages = conversation();
    expect((await compactor.maybeCompact(messages, ZERO_USAGE)).messages).toBe(messages);
    expect(provider.requests).toHaveLength(0);
    const low = planCompactor({ strategy: "llm", tokenThreshold: 1 }, { provider, model: "main" });
    await low.maybeCompact(messages, ZERO_USAGE);
    expect(provider.requests[0]?.model).toBe("main");
  });
});

describe("checkCompactionPlan and defineAgent's compaction option", () => {
  it.each([
    [null, "must be an object"],
    [{ strategy: "smart" }, "'strategy' must be 'default' or 'llm', not \"smart\""],
    [{ strategy: "llm", tokenThreshold: -1 }, "'tokenThreshold' must be a number of tokens"],
    [{ strategy: "llm", keepRecentTurns: 1.5 }, "'keepRecentTurns' must be a whole number"],
    [{ strategy: "default", summaryModel: "m" }, "'summaryModel' does not apply to the 'default' strategy"],
    [{ strategy: "llm", maxMessages: 10 }, "'maxMessages' does not apply to the 'llm' strategy"],
    [{ strategy: "llm", summaryModel: "" }, "'summaryModel' must be a model id"],
    [{ strategy: "llm", typo: 1 }, "has an unknown field 'typo'"],
  ])("refuses %j: %s", (plan, problem) => {
    expect(checkCompactionPlan(plan)).toContain(problem);
    expect(() => defineAgent({ name: "a", model: "m", compaction: plan as never })).toThrow(
      `agent 'a': 'compaction' ${checkCompactionPlan(plan)}`,
    );
  });

  it("accepts a full plan of either strategy, and the plan carries it", () => {
    const llm = {
      strategy: "llm",
      tokenThreshold: 0,
      keepRecentTurns: 0,
      summaryModel: "s",
      maxFailures: 1,
    } as const;
    expect(checkCompactionPlan(llm)).toBeUndefined();
    expect(
      checkCompactionPlan({ strategy: "default", maxMessages: 5, keepRecentToolResults: 0 }),
    ).toBeUndefined();
    expect(toAgentPlan(defineAgent({ name: "a", model: "m", compaction: llm })).compaction).toEqual(llm);
    expect(toAgentPlan(defineAgent({ name: "a", model: "m" })).compaction).toBeUndefined();
  });

  it("in-process runs of the definition compact with the same plan (the summary comes from the run's provider)", async () => {
    const page = defineTool({
      name: "page",
      description: "a page",
      schema: z.object({ n: z.number() }),
      execute: ({ n }) => `${n}:${big}`,
    });
    const agent = defineAgent({
      name: "reader",
      model: "main",
      tools: [page],
      compaction: { strategy: "llm", tokenThreshold: 50, keepRecentTurns: 1 },
    });
    const provider = fakeProvider([
      toolCallTurn([{ id: "p1", name: "page", input: { n: 1 } }]),
      textTurn("read one"),
      textTurn("second answer"),
      // The third run's first call: three turns over the threshold, so the summary call comes first.
      textTurn("earlier: one page read"),
      textTurn("done"),
    ]);
    const runner = createAgent(localAgentConfig(agent, provider));
    const first = await runner.send("read a page");
    const second = await collect(runner.run("again", { history: first.messages }));
    expect(second.events.some((event) => event.type === "compaction")).toBe(false);
    const third = await collect(runner.run("and now?", { history: second.result.messages }));
    expect(third.events.filter((event) => event.type === "compaction")).toEqual([
      expect.objectContaining({ type: "compaction", kind: "auto" }),
    ]);
    expect(third.result.messages[0]).toEqual({
      role: "user",
      content: `${SUMMARY_HEADER}\nearlier: one page read`,
    });
    expect(third.result.messages.slice(1).map((message) => message.content)).toEqual([
      "and now?",
      [{ type: "text", text: "done" }],
    ]);
  });
});
