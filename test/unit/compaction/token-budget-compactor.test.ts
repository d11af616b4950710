import { describe, expect, it } from "vitest";
import { tokenBudgetCompactor } from "../../../src/kernel/compaction/token-budget-compactor.js";
import { AgentError } from "../../../src/kernel/vocabulary/errors.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { ZERO_USAGE } from "../../../src/kernel/vocabulary/model.js";
import { prompt } from "./fixtures.js";

/** Each prompt is 40 chars = 10 tokens. */
const turns = (n: number): Message[] => Array.from({ length: n }, (_, i) => prompt(`${i}`.padEnd(40, ".")));

describe("tokenBudgetCompactor", () => {
  it("keeps the newest turns that fit behind a note", async () => {
    const messages = turns(5);
    const result = await tokenBudgetCompactor({ maxTokens: 25 }).maybeCompact(messages, ZERO_USAGE);
    expect(result.messages).toEqual([
      prompt("[3 earlier turn(s) omitted to fit the local context budget]"),
      ...messages.slice(3),
    ]);
    expect(result).toMatchObject({ kind: "auto", before: 50 });
  });

  it("returns the same array when the conversation fits", async () => {
    const messages = turns(2);
    const result = await tokenBudgetCompactor({ maxTokens: 20 }).maybeCompact(messages, ZERO_USAGE);
    expect(result).toEqual({ messages, before: 20, after: 20 });
    expect(result.messages).toBe(messages);
  });

  it("keeps minTailTurns even when they exceed the budget", async () => {
    const messages = turns(4);
    const result = await tokenBudgetCompactor({ maxTokens: 5, minTailTurns: 2 }).maybeCompact(
      messages,
      ZERO_USAGE,
    );
    expect(result.messages.slice(1)).toEqual(messages.slice(2));
  });

  it("uses a custom, possibly async, estimator", async () => {
    const messages = turns(4);
    const estimator = async (m: Message[]) => m.length * 100;
    const result = await tokenBudgetCompactor({ maxTokens: 250, estimator }).maybeCompact(
      messages,
      ZERO_USAGE,
    );
    expect(result.messages).toHaveLength(3);
    expect(result.after).toBe(300);
  });

  it("rejects a budget that is not a positive finite number", () => {
    expect(() => tokenBudgetCompactor({ maxTokens: 0 })).toThrow(AgentError);
    expect(() => tokenBudgetCompactor({ maxTokens: Number.POSITIVE_INFINITY })).toThrow(AgentError);
  });
});
