import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import type { Middleware } from "../../../src/kernel/middleware/middleware.js";
import type { ModelChunk, ModelProvider } from "../../../src/kernel/vocabulary/model.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";

// The kernel's loop delivers events to an outlet; `run()` turns it back into a generator that pauses the loop at
// every event until the consumer asks for the next one, as a generator's `yield` would.
describe("the in-process event stream pauses the loop like a generator", () => {
  it("runs the loop only as far as the events the consumer asked for", async () => {
    const seen: string[] = [];
    const tracer: Middleware = {
      name: "tracer",
      beforeModel: () => void seen.push("beforeModel"),
      afterTurn: () => void seen.push("afterTurn"),
    };
    const noop = defineTool({ name: "noop", description: "", schema: z.object({}), execute: () => "ok" });
    const model = fakeProvider([toolCallTurn([{ id: "a", name: "noop", input: {} }]), textTurn("done")]);
    const run = createAgent({ model, codec: nativeCodec(), tools: [noop], use: [tracer] }).run("go");
    const take = async (): Promise<AgentEvent> => {
      const next = await run.next();
      if (next.done) throw new Error("the run ended early");
      seen.push(next.value.type);
      return next.value;
    };
    expect((await take()).type).toBe("turn_start");
    // The consumer holds turn_start: the turn's hooks have not run and the model was not called.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual(["turn_start"]);
    expect(model.requests).toHaveLength(0);
    while ((await take()).type !== "tool_result");
    // The consumer holds the tool's last event: afterTurn waits for it to ask for more.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).not.toContain("afterTurn");
    expect((await take()).type).toBe("turn_end");
    expect(seen.filter((entry) => entry === "afterTurn")).toHaveLength(1);
  });

  it("a consumer that stops early closes the model's stream and the run does nothing more", async () => {
    let closed = false;
    const afterAgent: string[] = [];
    const model: ModelProvider = {
      id: "slow",
      async *stream(): AsyncIterable<ModelChunk> {
        try {
          yield { type: "text_delta", text: "one" };
          yield { type: "text_delta", text: "two" };
          yield {
            type: "message_done",
            message: { role: "assistant", content: [{ type: "text", text: "onetwo" }] },
            usage: { inputTokens: 1, outputTokens: 1 },
          };
        } finally {
          closed = true;
        }
      },
    };
    const use: Middleware[] = [
      { name: "ends", afterAgent: (_ctx, { reason }) => void afterAgent.push(reason) },
    ];
    const events: AgentEvent[] = [];
    for await (const event of createAgent({ model, codec: nativeCodec(), use }).run("go")) {
      events.push(event);
      if (event.type === "text_delta") break;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events.map((event) => event.type)).toEqual(["turn_start", "model_call_start", "text_delta"]);
    expect(closed).toBe(true);
    expect(afterAgent).toEqual([]);
  });
});
