import { describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import { assistantMessage, textBlock } from "../../../src/kernel/vocabulary/messages.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn } from "../../../src/testing/builders.js";
import { collect } from "../../support/collect.js";

describe("an answer cut off at the output limit", () => {
  it("ends its turn with the seed's max_tokens stop reason; the run stops as usual", async () => {
    const cut = {
      message: assistantMessage([textBlock("the answer is")]),
      stopReason: "max_tokens" as const,
    };
    const { events, result } = await collect(
      createAgent({ model: fakeProvider([cut]), codec: nativeCodec() }).run("go"),
    );
    expect(events.find((event) => event.type === "turn_end")).toEqual({
      type: "turn_end",
      turn: 1,
      stopReason: "max_tokens",
    });
    expect(result.stopReason).toBe("stop");
    expect(result.text).toBe("the answer is");
  });

  it("a complete answer, or one from a provider that gives no reason, ends its turn with stop", async () => {
    const complete = { ...textTurn("done"), stopReason: "stop" as const };
    for (const turn of [complete, textTurn("done")]) {
      const { events } = await collect(
        createAgent({ model: fakeProvider([turn]), codec: nativeCodec() }).run("go"),
      );
      expect(events.find((event) => event.type === "turn_end")).toMatchObject({ stopReason: "stop" });
    }
  });
});
