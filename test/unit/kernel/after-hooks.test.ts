import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { jsonCodec, nativeCodec } from "../../../src/kernel/codecs/index.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import {
  assistantMessage,
  textBlock,
  type ToolResultBlock,
} from "../../../src/kernel/vocabulary/messages.js";
import type { Middleware, ModelResponse, RunEnd } from "../../../src/kernel/middleware/middleware.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect, kernelOf } from "../../support/collect.js";

const echo = defineTool({
  name: "echo",
  description: "echoes",
  schema: z.object({ say: z.string() }),
  execute: ({ say }) => say,
});
const failing = defineTool({
  name: "fail",
  description: "fails",
  schema: z.object({}),
  execute: () => {
    throw new Error("broken");
  },
});

/** A middleware that marks each after-hook it runs as a `hook:<name>` diagnostic in the run's stream. */
function marker(): Middleware {
  const mark = (ctx: { emit(event: AgentEvent): void }, name: string) =>
    ctx.emit({ type: "diagnostic", level: "info", code: `hook:${name}`, message: name });
  return {
    name: "marker",
    afterModel: (ctx) => mark(ctx, "afterModel"),
    afterToolCall: (ctx) => mark(ctx, "afterToolCall"),
    afterTurn: (ctx) => mark(ctx, "afterTurn"),
    afterAgent: (ctx) => mark(ctx, "afterAgent"),
  };
}

/** The event types, a hook's marker as `hook:<name>`, consecutive deltas as one. */
function sequence(events: AgentEvent[]): string[] {
  const names = events.map((event) => (event.type === "diagnostic" ? event.code : event.type));
  return names.filter((name, index) => !(name.endsWith("_delta") && names[index - 1] === name));
}

describe("the Go seed's after-hooks", () => {
  it("run at their points: afterModel after the message, afterToolCall before tool_call_end, afterTurn before turn_end", async () => {
    const model = fakeProvider([
      toolCallTurn([{ id: "1", name: "echo", input: { say: "hi" } }]),
      textTurn("ok"),
    ]);
    const { events } = await collect(
      createAgent({ model, codec: nativeCodec(), tools: [echo], use: [marker()] }).run("go"),
    );
    expect(sequence(events)).toEqual([
      "turn_start",
      "model_call_start",
      "model_call_end",
      "message",
      "hook:afterModel",
      "tool_use",
      "tool_call_start",
      "hook:afterToolCall",
      "tool_call_end",
      "tool_result",
      "hook:afterTurn",
      "turn_end",
      "turn_start",
      "model_call_start",
      "text_delta",
      "model_call_end",
      "message",
      "hook:afterModel",
      "turn_end",
      "hook:afterAgent",
      "done",
    ]);
  });

  it("afterModel sees the message (already in the conversation), its usage and stop reason", async () => {
    const seen: { response: ModelResponse; last: unknown }[] = [];
    const watcher: Middleware = {
      name: "watch",
      afterModel: (ctx, response) => void seen.push({ response, last: ctx.messages.at(-1) }),
    };
    const message = assistantMessage([textBlock("cut")]);
    const model = fakeProvider([
      { message, usage: { inputTokens: 3, outputTokens: 4 }, stopReason: "max_tokens" },
    ]);
    await createAgent({ model, codec: nativeCodec(), use: [watcher] }).send("go");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.response).toEqual({
      message,
      usage: { inputTokens: 3, outputTokens: 4 },
      stopReason: "max_tokens",
    });
    expect(seen[0]!.last).toEqual(message);
  });

  it("afterModel also runs for a malformed answer the codec repairs", async () => {
    const texts: string[] = [];
    const watcher: Middleware = {
      name: "watch",
      afterModel: (_ctx, { message }) => void texts.push(JSON.stringify(message.content)),
    };
    const model = fakeProvider([textTurn('{"tool_calls": [ broken'), textTurn("done")]);
    const { result } = await collect(createAgent({ model, codec: jsonCodec(), use: [watcher] }).run("go"));
    expect(texts).toHaveLength(2);
    expect(result.text).toBe("done");
  });

  it("afterToolCall may replace a result, errors included; the model reads the replacement under the call's id", async () => {
    const rewriter: Middleware = {
      name: "rewrite",
      afterToolCall: (ctx, result) =>
        result.isError
          ? { id: "other", name: "other", content: `recovered: ${result.content}` }
          : { ...result, content: `${result.content}!` },
    };
    const second: string[] = [];
    const observer: Middleware = {
      name: "observe",
      afterToolCall: (_ctx, result) => void second.push(result.content),
    };
    const model = fakeProvider([
      toolCallTurn([
        { id: "a", name: "echo", input: { say: "hi" } },
        { id: "b", name: "fail", input: {} },
      ]),
      textTurn("ok"),
    ]);
    await createAgent({
      model,
      codec: nativeCodec(),
      tools: [echo, failing],
      use: [rewriter, observer],
    }).send("go");
    const fedBack = model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[];
    expect(fedBack).toEqual([
      { type: "tool_result", id: "a", content: "hi!" },
      { type: "tool_result", id: "b", content: "recovered: Error: broken" },
    ]);
    // Each hook sees what the previous one left.
    expect(second.sort()).toEqual(["hi!", "recovered: Error: broken"]);
  });

  it("afterToolCall sees a result a beforeToolCall hook skipped with; a throwing one gives an error result", async () => {
    const hooks: Middleware = {
      name: "hooks",
      beforeToolCall: (ctx) => (ctx.call.id === "a" ? { action: "skip", result: "prefilled" } : undefined),
      afterToolCall: (ctx, result) => {
        if (ctx.call.id === "b") throw new Error("hook failed");
        return { ...result, content: `${result.content} (seen)` };
      },
    };
    const model = fakeProvider([
      toolCallTurn([
        { id: "a", name: "echo", input: { say: "x" } },
        { id: "b", name: "echo", input: { say: "y" } },
      ]),
      textTurn("ok"),
    ]);
    await createAgent({ model, codec: nativeCodec(), tools: [echo], use: [hooks] }).send("go");
    expect(model.requests[1]!.messages.at(-1)!.content).toEqual([
      { type: "tool_result", id: "a", content: "prefilled (seen)" },
      { type: "tool_result", id: "b", content: "Error: hook failed", isError: true },
    ]);
  });

  it("afterTurn runs once per tool turn, after the results are in the conversation, and may add to it", async () => {
    const lastRoles: string[] = [];
    const noter: Middleware = {
      name: "note",
      afterTurn: (ctx) => {
        lastRoles.push(ctx.messages.at(-1)!.role);
        ctx.messages.push({ role: "user", content: `note after turn ${ctx.turn}` });
      },
    };
    const model = fakeProvider([
      toolCallTurn([{ id: "1", name: "echo", input: { say: "a" } }]),
      toolCallTurn([{ id: "2", name: "echo", input: { say: "b" } }]),
      textTurn("ok"),
    ]);
    await createAgent({ model, codec: nativeCodec(), tools: [echo], use: [noter] }).send("go");
    expect(lastRoles).toEqual(["user", "user"]);
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: "user", content: "note after turn 1" });
    expect(model.requests[2]!.messages.at(-1)).toEqual({ role: "user", content: "note after turn 2" });
  });

  it("afterAgent learns why the run ended", async () => {
    const ends: RunEnd[] = [];
    const watcher: Middleware = { name: "end", afterAgent: (_ctx, end) => void ends.push(end) };
    const loop = () => toolCallTurn([{ id: "1", name: "echo", input: { say: "again" } }]);
    await createAgent({ model: fakeProvider([textTurn("ok")]), codec: nativeCodec(), use: [watcher] }).send(
      "go",
    );
    await createAgent({
      model: fakeProvider([loop()], { onExhausted: "repeat-last" }),
      codec: nativeCodec(),
      tools: [echo],
      maxTurns: 2,
      use: [watcher],
    }).send("go");
    expect(ends).toEqual([{ reason: "stop" }, { reason: "max_turns" }]);
  });

  it("a throwing afterModel hook ends the run with a fatal error, as beforeModel does", async () => {
    const thrower: Middleware = {
      name: "throw",
      afterModel: () => {
        throw new Error("afterModel failed");
      },
    };
    const { events, result } = await collect(
      kernelOf(
        createAgent({ model: fakeProvider([textTurn("ok")]), codec: nativeCodec(), use: [thrower] }),
      ).run("go"),
    );
    expect(events.find((e) => e.type === "error")).toMatchObject({ fatal: true });
    expect(result.stopReason).toBe("error");
  });
});
