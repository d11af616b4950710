import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect, eventTypes } from "../../support/collect.js";

const echo = defineTool({
  name: "echo",
  description: "Echoes its text",
  schema: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

describe("canonical event order", () => {
  it("one tool turn then a text turn", async () => {
    const model = fakeProvider([
      toolCallTurn([{ id: "c1", name: "echo", input: { text: "hi" } }]),
      textTurn("done"),
    ]);
    const agent = createAgent({ model, codec: nativeCodec(), tools: [echo] });
    const { events, result } = await collect(agent.run("go"));
    expect(eventTypes(events)).toEqual([
      "turn_start",
      "model_call_start",
      "model_call_end",
      "message",
      "tool_use",
      "tool_call_start",
      "tool_call_end",
      "tool_result",
      "turn_end",
      "turn_start",
      "model_call_start",
      "text_delta",
      "text_delta",
      "text_delta",
      "text_delta",
      "model_call_end",
      "message",
      "turn_end",
      "done",
    ]);
    expect(result.stopReason).toBe("stop");
    expect(result.text).toBe("done");
    expect(events.filter((e) => e.type === "turn_start").map((e) => (e as { turn: number }).turn)).toEqual([
      1, 2,
    ]);
    const toolResult = events.find((e) => e.type === "tool_result");
    expect(toolResult).toMatchObject({ result: { id: "c1", name: "echo", content: "echo: hi" } });
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("turn_end reasons are tool_use then stop, and done carries the result", async () => {
    const model = fakeProvider([
      toolCallTurn([{ id: "c1", name: "echo", input: { text: "x" } }]),
      textTurn("ok"),
    ]);
    const { events, result } = await collect(
      createAgent({ model, codec: nativeCodec(), tools: [echo] }).run("go"),
    );
    const ends = events
      .filter((e) => e.type === "turn_end")
      .map((e) => (e as { stopReason: string }).stopReason);
    expect(ends).toEqual(["tool_use", "stop"]);
    const done = events.at(-1);
    expect(done).toEqual({ type: "done", reason: "stop", result });
  });

  it("reasoning chunks arrive as reasoning_delta events before the text", async () => {
    const model = fakeProvider([{ ...textTurn("ab"), reasoning: "hm" }]);
    const { events } = await collect(createAgent({ model, codec: nativeCodec() }).run("q"));
    expect(eventTypes(events, { collapseDeltas: true })).toEqual([
      "turn_start",
      "model_call_start",
      "reasoning_delta",
      "text_delta",
      "model_call_end",
      "message",
      "turn_end",
      "done",
    ]);
    const reasoning = events
      .filter((e) => e.type === "reasoning_delta")
      .map((e) => (e as { text: string }).text);
    expect(reasoning.join("")).toBe("hm");
  });
});
