import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect } from "../../support/collect.js";

describe("fork", () => {
  it("every event of a fork carries its forkId; the fork sees the seed, not the system messages in it", async () => {
    const model = fakeProvider([textTurn("forked answer")]);
    const agent = createAgent({ model, codec: nativeCodec(), system: "sys" });
    const seed = [
      { role: "system" as const, content: "dropped" },
      { role: "user" as const, content: "context" },
      { role: "assistant" as const, content: "noted" },
    ];
    const { events, result } = await collect(agent.fork(seed, "try another way", { forkId: "f-1" }));
    expect(events.length).toBeGreaterThan(3);
    expect(events.every((e) => e.forkId === "f-1")).toBe(true);
    expect(result.text).toBe("forked answer");
    expect(model.requests[0]!.messages).toEqual([
      seed[1],
      seed[2],
      { role: "user", content: "try another way" },
    ]);
    expect(model.requests[0]!.system).toBe("sys");
  });

  it("a tool can fork the agent: fork events stream through the parent with task-N ids, usage adds up, and a fork cannot fork again", async () => {
    let nested: unknown = "unset";
    const task = defineTool({
      name: "task",
      description: "runs a subtask in a fork",
      schema: z.object({ task: z.string() }),
      async execute({ task: input }, ctx) {
        const result = await ctx.fork!(input);
        return result.text;
      },
    });
    const probe = defineTool({
      name: "probe",
      description: "",
      schema: z.object({}),
      execute: (_i, ctx) => ((nested = ctx.fork), "probed"),
    });
    const model = fakeProvider([
      {
        ...toolCallTurn([{ id: "t1", name: "task", input: { task: "sub" } }]),
        usage: { inputTokens: 1, outputTokens: 1 },
      },
      {
        ...toolCallTurn([{ id: "p1", name: "probe", input: {} }]),
        usage: { inputTokens: 10, outputTokens: 10 },
      },
      { ...textTurn("sub done"), usage: { inputTokens: 100, outputTokens: 100 } },
      { ...textTurn("all done"), usage: { inputTokens: 1000, outputTokens: 1000 } },
    ]);
    const { events, result } = await collect(
      createAgent({ model, codec: nativeCodec(), tools: [task, probe] }).run("go"),
    );
    const forkEvents = events.filter((e) => e.forkId !== undefined);
    expect(forkEvents.length).toBeGreaterThan(0);
    expect(new Set(forkEvents.map((e) => e.forkId))).toEqual(new Set(["task-1"]));
    expect(forkEvents.at(-1)).toMatchObject({ type: "done", reason: "stop" });
    expect(nested).toBeUndefined();
    expect(events.find((e) => e.type === "tool_result" && e.forkId === undefined)).toMatchObject({
      result: { id: "t1", content: "sub done" },
    });
    expect(result.usage).toEqual({ inputTokens: 1111, outputTokens: 1111 });
    // The fork was seeded with the conversation before the assistant message that called the tool.
    expect(model.requests[1]!.messages).toEqual([
      { role: "user", content: "go" },
      { role: "user", content: "sub" },
    ]);
  });
});

describe("runAsync handle", () => {
  it("streams events and resolves wait() with the result", async () => {
    const handle = createAgent({ model: fakeProvider([textTurn("yo")]), codec: nativeCodec() }).runAsync(
      "hi",
    );
    const events: AgentEvent[] = [];
    for await (const event of handle.events) events.push(event);
    const result = await handle.wait();
    expect(result.text).toBe("yo");
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
  });

  it("cancel() ends the run with done(aborted), idempotently", async () => {
    const slow = defineTool({
      name: "slow",
      description: "",
      schema: z.object({}),
      execute: (_i, ctx) =>
        new Promise<string>((resolve) => ctx.signal.addEventListener("abort", () => resolve("stopped"))),
    });
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "slow", input: {} }]), textTurn("never")]);
    const handle = createAgent({ model, codec: nativeCodec(), tools: [slow] }).runAsync("go");
    const seen: string[] = [];
    for await (const event of handle.events) {
      seen.push(event.type);
      if (event.type === "tool_call_start") {
        handle.cancel();
        handle.cancel();
      }
    }
    const result = await handle.wait();
    expect(result.stopReason).toBe("aborted");
    expect(seen.at(-1)).toBe("done");
    expect(model.requests).toHaveLength(1);
  });
});
