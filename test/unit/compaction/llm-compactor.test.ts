import { describe, expect, it } from "vitest";
import { llmCompactor } from "../../../src/kernel/compaction/llm-compactor.js";
import type { Compactor } from "../../../src/kernel/compaction/types.js";
import { AbortError, ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { ZERO_USAGE } from "../../../src/kernel/vocabulary/model.js";
import { ABORTED, callOf, prompt, resultOf, scriptedProvider, toolTurn } from "./fixtures.js";

/** A base compactor that changes nothing, so tests see the LLM step alone. */
const identity: Compactor = { maybeCompact: (messages) => ({ messages }) };

const conversation = (n: number): Message[] =>
  Array.from({ length: n }, (_, i) => toolTurn(`question ${i}`, `c${i}`, `r${i}`.repeat(40))).flat();

const compactorWith = (provider: ReturnType<typeof scriptedProvider>, extra: { maxFailures?: number } = {}) =>
  llmCompactor({
    provider,
    model: "summary-model",
    base: identity,
    tokenThreshold: 10,
    keepRecentTurns: 2,
    ...extra,
  });

describe("llmCompactor", () => {
  it("replaces older turns with a summary message and keeps the recent turns verbatim", async () => {
    const provider = scriptedProvider([{ text: "  the gist  " }]);
    const messages = conversation(5);
    const result = await compactorWith(provider).maybeCompact(messages, ZERO_USAGE);
    expect(result.kind).toBe("auto");
    expect(result.messages).toEqual([
      prompt("[Summary of earlier conversation]\nthe gist"),
      ...messages.slice(9),
    ]);
    expect(result.after!).toBeLessThan(result.before!);
    const request = provider.requests[0]!;
    expect(request.model).toBe("summary-model");
    expect(request.messages).toHaveLength(1);
    expect(JSON.stringify(request.messages)).toContain("question 2");
    expect(JSON.stringify(request.messages)).not.toContain("question 3");
  });

  it("appends caller instructions to the summary prompt", async () => {
    const provider = scriptedProvider([{ text: "s" }]);
    await llmCompactor({
      provider,
      model: "m",
      base: identity,
      tokenThreshold: 10,
      summaryPrompt: "PROMPT",
    }).maybeCompact(conversation(5), ZERO_USAGE, "keep the file names");
    expect(provider.requests[0]?.system).toMatch(/^PROMPT[\s\S]*keep the file names$/);
  });

  it("does not call the model while the conversation is under the threshold (default 120_000)", async () => {
    const provider = scriptedProvider([]);
    const messages = conversation(5);
    const result = await llmCompactor({ provider, model: "m", base: identity }).maybeCompact(
      messages,
      ZERO_USAGE,
    );
    expect(result.messages).toBe(messages);
    expect(provider.requests).toHaveLength(0);
  });

  it("runs the base compactor first and summarises its output", async () => {
    const provider = scriptedProvider([{ text: "s" }]);
    const shrunk = conversation(4);
    const base: Compactor = { maybeCompact: () => ({ messages: shrunk, kind: "micro" }) };
    const result = await llmCompactor({
      provider,
      model: "m",
      base,
      tokenThreshold: 10,
      keepRecentTurns: 1,
    }).maybeCompact(conversation(9), ZERO_USAGE);
    expect(result.messages.slice(1)).toEqual(shrunk.slice(9));
  });

  it("opens the circuit after maxFailures consecutive failures and then runs only the base", async () => {
    const provider = scriptedProvider([
      { error: new ProviderError("boom", 500) },
      { chunks: [] },
      { text: "never" },
    ]);
    const compactor = compactorWith(provider);
    const messages = conversation(5);
    for (let i = 0; i < 3; i++) {
      const result = await compactor.maybeCompact(messages, ZERO_USAGE);
      expect(result.messages).toBe(messages);
    }
    // The second failure is a stream without message_done; the third call never reaches the model.
    expect(provider.requests).toHaveLength(2);
  });

  it("resets the failure count after a success", async () => {
    const fail = { error: new ProviderError("boom") };
    const provider = scriptedProvider([fail, { text: "ok" }, fail, { text: "again" }]);
    const compactor = compactorWith(provider);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await compactor.maybeCompact(conversation(5), ZERO_USAGE));
    expect(results.map((r) => r.kind)).toEqual([undefined, "auto", undefined, "auto"]);
  });

  it("rethrows when the run is aborted instead of counting a failure", async () => {
    const provider = scriptedProvider([{ error: new AbortError() }]);
    await expect(
      compactorWith(provider).maybeCompact(conversation(5), ZERO_USAGE, undefined, ABORTED),
    ).rejects.toThrow(AbortError);
  });

  it("keeps the conversation when there is at most one turn older than keepRecentTurns", async () => {
    const provider = scriptedProvider([{ text: "s" }]);
    const messages = conversation(3);
    const result = await compactorWith(provider).maybeCompact(messages, ZERO_USAGE);
    expect(result.messages).toBe(messages);
    expect(provider.requests).toHaveLength(0);
  });

  it("summarises one long run of tool calls too: its older model calls, with the prompt, keeping the newest calls whole", async () => {
    const provider = scriptedProvider([{ text: "read pages 0-5" }]);
    const exchanges = Array.from({ length: 8 }, (_, i) => [
      callOf(`c${i}`),
      resultOf(`c${i}`, `page ${i} `.repeat(40)),
    ]);
    const messages = [prompt("read every page"), ...exchanges.flat()];
    const result = await compactorWith(provider).maybeCompact(messages, ZERO_USAGE);
    expect(result.kind).toBe("auto");
    // The newest two calls stay whole, each with its result; they follow the summary's user message.
    expect(result.messages).toEqual([
      prompt("[Summary of earlier conversation]\nread pages 0-5"),
      ...exchanges.slice(6).flat(),
    ]);
    const summarised = JSON.stringify(provider.requests[0]!.messages);
    expect(summarised).toContain("read every page");
    expect(summarised).toContain("page 5");
    expect(summarised).not.toContain("page 6");
  });
});
