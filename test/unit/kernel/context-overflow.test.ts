import { describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import { ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn } from "../../../src/testing/builders.js";
import { collect, kernelOf } from "../../support/collect.js";

const history: Message[] = Array.from({ length: 12 }, (_, index) => ({
  role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
  content: `${index % 2 === 0 ? "question" : "answer"} ${index}: ${"x".repeat(400)}`,
}));

describe("context overflow", () => {
  it("with the ContextEngine on, an overflow before any chunk gets one emergency compaction and one retry", async () => {
    const model = fakeProvider([{ error: new ProviderError("prompt too long", 413) }, textTurn("fits now")]);
    const agent = createAgent({ model, codec: nativeCodec(), context: { windowTokens: 100_000 } });
    const { events, result } = await collect(agent.run("and now?", { history }));
    expect(result.text).toBe("fits now");
    const status = events.find((e) => e.type === "context_status") as Extract<
      AgentEvent,
      { type: "context_status" }
    >;
    expect(status).toMatchObject({ level: 5, retry: true });
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]!.messages).length).toBeLessThan(
      JSON.stringify(model.requests[0]!.messages).length,
    );
    expect(events.filter((e) => e.type === "model_call_start")).toHaveLength(2);
  });

  it("without the ContextEngine an overflow is a fatal error", async () => {
    const model = fakeProvider([{ error: new ProviderError("prompt too long", 413) }]);
    const { result } = await collect(
      kernelOf(createAgent({ model, codec: nativeCodec() })).run("hi", { history }),
    );
    expect(result.stopReason).toBe("error");
    expect(model.requests).toHaveLength(1);
  });

  it("a second overflow is not retried again", async () => {
    const overflow = { error: new ProviderError("maximum context length exceeded", 400) };
    const model = fakeProvider([overflow, overflow]);
    const { result } = await collect(
      kernelOf(createAgent({ model, codec: nativeCodec(), context: {} })).run("hi", { history }),
    );
    expect(result.stopReason).toBe("error");
    expect(model.requests).toHaveLength(2);
  });
});
