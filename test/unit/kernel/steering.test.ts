import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import { SteerController } from "../../../src/kernel/vocabulary/steer-controller.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect } from "../../support/collect.js";

describe("steering", () => {
  it("a steer lands at the next turn start, before the model call, and is persisted in the conversation", async () => {
    const steer = new SteerController();
    const tool = defineTool({
      name: "work",
      description: "work",
      schema: z.object({}),
      execute: () => {
        steer.steer("also mention cats");
        return "worked";
      },
    });
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "work", input: {} }]), textTurn("cats")]);
    const { events, result } = await collect(
      createAgent({ model, codec: nativeCodec(), tools: [tool] }).run("go", { steer }),
    );
    const types = events.map((e) => e.type);
    const secondTurn = types.indexOf("turn_start", types.indexOf("turn_start") + 1);
    expect(types[secondTurn + 1]).toBe("steer");
    expect(events[secondTurn + 1]).toMatchObject({
      messages: [{ role: "user", content: "also mention cats" }],
    });
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: "user", content: "also mention cats" });
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "user", "assistant"]);
  });

  it("a follow-up resurrects a run that would stop, and consumes a turn", async () => {
    const steer = new SteerController();
    steer.followUp("and now in French");
    const model = fakeProvider([textTurn("hello"), textTurn("bonjour")]);
    const { events, result } = await collect(
      createAgent({ model, codec: nativeCodec() }).run("greet", { steer }),
    );
    const compact = events.filter((e) => e.type !== "text_delta").map((e) => e.type);
    expect(compact).toEqual([
      "turn_start",
      "model_call_start",
      "model_call_end",
      "message",
      "turn_end",
      "steer",
      "turn_start",
      "model_call_start",
      "model_call_end",
      "message",
      "turn_end",
      "done",
    ]);
    expect(result.text).toBe("bonjour");
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: "user", content: "and now in French" });
  });

  it("follow-ups are not applied while the model still calls tools", async () => {
    const steer = new SteerController();
    steer.followUp("later");
    const noop = defineTool({ name: "noop", description: "", schema: z.object({}), execute: () => "ok" });
    const model = fakeProvider([
      toolCallTurn([{ id: "1", name: "noop", input: {} }]),
      textTurn("a"),
      textTurn("b"),
    ]);
    const { events } = await collect(
      createAgent({ model, codec: nativeCodec(), tools: [noop] }).run("go", { steer }),
    );
    const steerEvent = events.findIndex((e) => e.type === "steer");
    const stops = events
      .map((e, i) =>
        e.type === "turn_end" && (e as Extract<AgentEvent, { type: "turn_end" }>).stopReason === "stop"
          ? i
          : -1,
      )
      .filter((i) => i >= 0);
    expect(steerEvent).toBe(stops[0]! + 1);
    expect(model.requests[1]!.messages.some((m) => m.content === "later")).toBe(false);
  });
});

describe("interrupt", () => {
  it("cancels the in-flight model call and re-plans at once with the queued steers", async () => {
    const steer = new SteerController();
    let calls = 0;
    const model = {
      id: "slow-then-fast",
      async *stream(
        _request: unknown,
        signal?: { aborted: boolean; addEventListener(t: "abort", l: () => void): void },
      ) {
        calls++;
        if (calls === 1) {
          yield { type: "text_delta" as const, text: "thinking about the wrong thing" };
          await new Promise<void>((_resolve, reject) => {
            if (signal!.aborted) reject(new Error("aborted"));
            signal!.addEventListener("abort", () => reject(new Error("aborted")));
          });
        }
        yield {
          type: "message_done" as const,
          message: { role: "assistant" as const, content: [{ type: "text" as const, text: "replanned" }] },
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
    const run = createAgent({ model, codec: nativeCodec() }).run("start", { steer });
    const events: AgentEvent[] = [];
    let result;
    for (;;) {
      const next = await run.next();
      if (next.done) {
        result = next.value;
        break;
      }
      events.push(next.value);
      if (next.value.type === "text_delta" && calls === 1)
        expect(steer.interrupt("focus on the right thing")).toBe(true);
    }
    expect(result.stopReason).toBe("stop");
    expect(result.text).toBe("replanned");
    const types = events.filter((e) => e.type !== "text_delta").map((e) => e.type);
    expect(types).toEqual([
      "turn_start",
      "model_call_start",
      "model_call_end",
      "turn_end",
      "turn_start",
      "steer",
      "model_call_start",
      "model_call_end",
      "message",
      "turn_end",
      "done",
    ]);
    expect(events.find((e) => e.type === "model_call_end")).toMatchObject({ error: "interrupted" });
    expect(events.find((e) => e.type === "turn_end")).toMatchObject({ stopReason: "interrupted" });
    expect(result.messages.map((m) => m.content)).toEqual([
      "start",
      "focus on the right thing",
      [{ type: "text", text: "replanned" }],
    ]);
  });

  it("returns false when no model call is in flight", () => {
    expect(new SteerController().interrupt()).toBe(false);
  });
});
