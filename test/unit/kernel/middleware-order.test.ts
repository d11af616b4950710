import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import type { Middleware } from "../../../src/kernel/middleware/middleware.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect } from "../../support/collect.js";

function tracer(name: string, trace: string[]): Middleware {
  return {
    name,
    beforeAgent: () => void trace.push(`${name}.beforeAgent`),
    beforeModel: () => void trace.push(`${name}.beforeModel`),
    afterAgent: () => void trace.push(`${name}.afterAgent`),
    async *wrapModelCall(_ctx, next) {
      trace.push(`${name}.model>`);
      yield* next();
      trace.push(`${name}.model<`);
    },
    async wrapToolCall(_ctx, next) {
      trace.push(`${name}.tool>`);
      const result = await next();
      trace.push(`${name}.tool<`);
      return result;
    },
  };
}

const noop = defineTool({
  name: "noop",
  description: "does nothing",
  schema: z.object({}),
  execute: () => "ok",
});

describe("middleware onion", () => {
  it("model calls flow a → b → provider → b → a and lifecycle hooks run in array order", async () => {
    const trace: string[] = [];
    const base = fakeProvider([textTurn("x")]);
    const model = {
      id: "traced",
      stream: (...args: Parameters<typeof base.stream>) => (trace.push("provider"), base.stream(...args)),
    };
    const agent = createAgent({ model, codec: nativeCodec(), use: [tracer("a", trace), tracer("b", trace)] });
    await agent.send("hi");
    expect(trace).toEqual([
      "a.beforeAgent",
      "b.beforeAgent",
      "a.beforeModel",
      "b.beforeModel",
      "a.model>",
      "b.model>",
      "provider",
      "b.model<",
      "a.model<",
      "a.afterAgent",
      "b.afterAgent",
    ]);
  });

  it("tool calls flow a → b → tool → b → a", async () => {
    const trace: string[] = [];
    const tool = { ...noop, execute: () => (trace.push("tool"), "ok") };
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "noop", input: {} }]), textTurn("x")]);
    await createAgent({
      model,
      codec: nativeCodec(),
      tools: [tool],
      use: [tracer("a", trace), tracer("b", trace)],
    }).send("hi");
    const toolPart = trace.slice(trace.indexOf("a.tool>"), trace.indexOf("a.tool<") + 1);
    expect(toolPart).toEqual(["a.tool>", "b.tool>", "tool", "b.tool<", "a.tool<"]);
  });

  it("events emitted by middleware are drained at the next loop boundary", async () => {
    const emitter: Middleware = {
      name: "emitter",
      beforeModel: (ctx) =>
        ctx.emit({ type: "diagnostic", level: "info", code: "before-model", message: String(ctx.turn) }),
      async *wrapModelCall(ctx, next) {
        ctx.emit({ type: "diagnostic", level: "info", code: "in-model", message: "" });
        yield* next();
      },
    };
    const { events } = await collect(
      createAgent({ model: fakeProvider([textTurn("a")]), codec: nativeCodec(), use: [emitter] }).run("q"),
    );
    const types = events.map((e) => (e.type === "diagnostic" ? e.code : e.type));
    expect(types).toEqual([
      "turn_start",
      "before-model",
      "model_call_start",
      "text_delta",
      "model_call_end",
      "in-model",
      "message",
      "turn_end",
      "done",
    ]);
  });

  it("a beforeModel hook that reassigns ctx.messages keeps the change in later turns", async () => {
    let first = true;
    const rewriter: Middleware = {
      name: "rewriter",
      beforeModel(ctx) {
        if (!first) return;
        first = false;
        ctx.messages = [{ role: "user", content: "rewritten" }];
      },
    };
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "noop", input: {} }]), textTurn("x")]);
    await createAgent({ model, codec: nativeCodec(), tools: [noop], use: [rewriter] }).send("original");
    expect(model.requests[1]!.messages[0]).toEqual({ role: "user", content: "rewritten" });
    expect(model.requests[1]!.messages).toHaveLength(3);
  });

  it("the request is re-encoded from ctx.messages on every attempt", async () => {
    let attempts = 0;
    const retryOnce: Middleware = {
      name: "retry-once",
      async *wrapModelCall(ctx, next) {
        try {
          yield* next();
        } catch {
          attempts++;
          ctx.messages.push({ role: "user", content: "second attempt" });
          yield* next();
        }
      },
    };
    const model = fakeProvider([{ error: new Error("boom") }, textTurn("ok")]);
    const result = await createAgent({ model, codec: nativeCodec(), use: [retryOnce] }).send("hi");
    expect(attempts).toBe(1);
    expect(result.text).toBe("ok");
    expect(model.requests[0]!.messages).toHaveLength(1);
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: "user", content: "second attempt" });
  });
});
