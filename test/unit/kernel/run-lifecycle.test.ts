import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { jsonCodec, nativeCodec } from "../../../src/kernel/codecs/index.js";
import { ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { assistantMessage, imageBlock, textBlock } from "../../../src/kernel/vocabulary/messages.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect, kernelOf } from "../../support/collect.js";

const noop = defineTool({
  name: "noop",
  description: "does nothing",
  schema: z.object({}),
  execute: () => "ok",
});
const loopTurn = () => toolCallTurn([{ id: "n", name: "noop", input: {} }]);

describe("run lifecycle", () => {
  it("abort before the run starts ends with done(aborted) and no model call", async () => {
    const model = fakeProvider([textTurn("never")]);
    const controller = new AbortController();
    controller.abort();
    const { events, result } = await collect(
      createAgent({ model, codec: nativeCodec() }).run("hi", { signal: controller.signal }),
    );
    expect(events.map((e) => e.type)).toEqual(["done"]);
    expect(result.stopReason).toBe("aborted");
    expect(model.requests).toHaveLength(0);
  });

  it("abort during a stream ends with done(aborted), not a throw", async () => {
    const controller = new AbortController();
    const model = fakeProvider([textTurn("a long answer that will be cut")]);
    const events: AgentEvent[] = [];
    const run = createAgent({ model, codec: nativeCodec() }).run("hi", { signal: controller.signal });
    let result;
    for (;;) {
      const next = await run.next();
      if (next.done) {
        result = next.value;
        break;
      }
      events.push(next.value);
      if (next.value.type === "text_delta" && events.filter((e) => e.type === "text_delta").length === 3)
        controller.abort();
    }
    expect(result.stopReason).toBe("aborted");
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "aborted" });
    expect(events.filter((e) => e.type === "text_delta").length).toBeLessThan(10);
    expect(events.find((e) => e.type === "model_call_end")).toMatchObject({ error: expect.any(String) });
    expect(events.some((e) => e.type === "message")).toBe(false);
  });

  it("a provider error ends with a fatal error event and done(error)", async () => {
    const model = fakeProvider([{ error: new ProviderError("bad request", 400) }]);
    const { events, result } = await collect(
      kernelOf(createAgent({ model, codec: nativeCodec() })).run("hi"),
    );
    const error = events.find((e) => e.type === "error") as Extract<AgentEvent, { type: "error" }>;
    expect(error.fatal).toBe(true);
    expect(error.error).toBeInstanceOf(ProviderError);
    expect((error.error as ProviderError).status).toBe(400);
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "error" });
    expect(result.stopReason).toBe("error");
  });

  it("a stream without message_done is a ProviderError", async () => {
    const model = {
      id: "broken",
      async *stream() {
        yield { type: "text_delta" as const, text: "x" };
      },
    };
    const { events, result } = await collect(
      kernelOf(createAgent({ model, codec: nativeCodec() })).run("hi"),
    );
    const error = events.find((e) => e.type === "error") as Extract<AgentEvent, { type: "error" }>;
    expect(error.error).toBeInstanceOf(ProviderError);
    expect(error.error.message).toMatch(/message_done/);
    expect(result.stopReason).toBe("error");
  });

  it("maxTurns ends the run with max_turns, without throwing", async () => {
    const model = fakeProvider([loopTurn(), loopTurn(), loopTurn()]);
    const { events, result } = await collect(
      kernelOf(createAgent({ model, codec: nativeCodec(), tools: [noop], maxTurns: 2 })).run("go"),
    );
    expect(result.stopReason).toBe("max_turns");
    expect(model.requests).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "max_turns" });
  });

  it("maxTurns defaults to 50", async () => {
    const model = fakeProvider([loopTurn()], { onExhausted: "repeat-last" });
    const result = await createAgent({ model, codec: nativeCodec(), tools: [noop] }).send("go");
    expect(result.stopReason).toBe("max_turns");
    expect(model.requests).toHaveLength(50);
  });

  it("usage is summed over calls, cache tokens included", async () => {
    const model = fakeProvider([
      { ...loopTurn(), usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 } },
      { ...textTurn("x"), usage: { inputTokens: 20, outputTokens: 3, cacheCreationTokens: 5 } },
    ]);
    const { events, result } = await collect(
      createAgent({ model, codec: nativeCodec(), tools: [noop] }).run("go"),
    );
    expect(result.usage).toEqual({
      inputTokens: 30,
      outputTokens: 5,
      cacheReadTokens: 4,
      cacheCreationTokens: 5,
    });
    const ends = events.filter((e) => e.type === "model_call_end") as Extract<
      AgentEvent,
      { type: "model_call_end" }
    >[];
    expect(ends.map((e) => e.usage?.inputTokens)).toEqual([10, 20]);
  });

  it("a malformed response is repaired: raw message kept, non-fatal error, repair prompt, model called again", async () => {
    const model = fakeProvider([
      {
        text: '{"type":"tool_calls","calls":[',
        message: assistantMessage([textBlock('{"type":"tool_calls","calls":[')]),
      },
      {
        text: '{"type":"final","text":"fixed"}',
        message: assistantMessage([textBlock('{"type":"final","text":"fixed"}')]),
      },
    ]);
    const { events, result } = await collect(createAgent({ model, codec: jsonCodec() }).run("hi"));
    const types = events.map((e) => e.type);
    expect(types).toEqual([
      "turn_start",
      "model_call_start",
      "model_call_end",
      "message",
      "error",
      "model_call_start",
      "model_call_end",
      "text_delta",
      "message",
      "turn_end",
      "done",
    ]);
    expect(events.find((e) => e.type === "error")).toMatchObject({ fatal: false });
    expect(result.text).toBe("fixed");
    const repair = model.requests[1]!.messages.at(-1)!;
    expect(repair.role).toBe("user");
    expect(JSON.stringify(repair.content)).toContain("Repair the malformed tool-call response");
  });

  it("after maxDecodeRetries the run ends with a fatal error", async () => {
    const bad = { text: "{oops", message: assistantMessage([textBlock("{oops")]) };
    const model = fakeProvider([bad, bad]);
    const { events, result } = await collect(
      kernelOf(createAgent({ model, codec: jsonCodec(), maxDecodeRetries: 1 })).run("hi"),
    );
    const errors = events.filter((e) => e.type === "error") as Extract<AgentEvent, { type: "error" }>[];
    expect(errors.map((e) => e.fatal)).toEqual([false, true]);
    expect(errors[1]!.error.name).toBe("CodecError");
    expect(result.stopReason).toBe("error");
    expect(model.requests).toHaveLength(2);
  });

  it("a system prompt and prior history go before the input; system messages in the history are dropped", async () => {
    const model = fakeProvider([textTurn("ok")]);
    const history = [
      { role: "system" as const, content: "old system" },
      { role: "user" as const, content: "earlier question" },
      { role: "assistant" as const, content: "earlier answer" },
    ];
    await createAgent({ model, codec: nativeCodec(), system: "be brief" }).send("now", { history });
    expect(model.requests[0]!.system).toBe("be brief");
    expect(model.requests[0]!.messages).toEqual([history[1], history[2], { role: "user", content: "now" }]);
  });

  it("images ride on the input user message", async () => {
    const model = fakeProvider([textTurn("a cat")]);
    const image = imageBlock("aGVsbG8=", "image/png");
    await createAgent({ model, codec: nativeCodec() }).send("what is this?", { images: [image] });
    expect(model.requests[0]!.messages[0]).toEqual({
      role: "user",
      content: [textBlock("what is this?"), image],
    });
  });

  it("forwards model settings to the request", async () => {
    const model = fakeProvider([textTurn("ok")]);
    await createAgent({
      model,
      modelName: "m-1",
      codec: nativeCodec(),
      tools: [noop],
      maxTokens: 99,
      temperature: 0.3,
      topP: 0.9,
      seed: 7,
      toolChoice: "required",
    }).send("x");
    expect(model.requests[0]).toMatchObject({
      model: "m-1",
      maxTokens: 99,
      temperature: 0.3,
      topP: 0.9,
      seed: 7,
      toolChoice: "required",
    });
    expect(model.requests[0]!.tools?.[0]).toMatchObject({ name: "noop", parameters: { type: "object" } });
  });

  it("a throwing beforeAgent hook ends the run with a fatal error and done", async () => {
    const model = fakeProvider([textTurn("never")]);
    const use = [
      {
        name: "bad",
        beforeAgent: () => {
          throw new Error("hook failed");
        },
      },
    ];
    const { events, result } = await collect(
      kernelOf(createAgent({ model, codec: nativeCodec(), use })).run("x"),
    );
    expect(events.map((e) => e.type)).toEqual(["error", "done"]);
    expect(result.stopReason).toBe("error");
  });
});
