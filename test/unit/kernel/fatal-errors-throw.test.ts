import { describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent.js";
import { jsonCodec, nativeCodec } from "../../../src/kernel/codecs/index.js";
import { CodecError, ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn } from "../../../src/testing/builders.js";

/** The events a run yields before it ends, and what it threw (undefined when it returned). */
async function drainThrowing(run: AsyncGenerator<AgentEvent>): Promise<{ types: string[]; thrown: unknown }> {
  const types: string[] = [];
  try {
    for await (const event of run) types.push(event.type);
    return { types, thrown: undefined };
  } catch (error) {
    return { types, thrown: error };
  }
}

describe("the in-process agent throws a fatal error, as the seed's does", () => {
  it("run yields the fatal error event, then throws the ProviderError, with no done", async () => {
    const failing = new ProviderError("bad request", 400);
    const agent = createAgent({ model: fakeProvider([{ error: failing }]), codec: nativeCodec() });
    const { types, thrown } = await drainThrowing(agent.run("hi"));
    expect(thrown).toBe(failing);
    expect(types.at(-1)).toBe("error");
    expect(types).not.toContain("done");
  });

  it("send rejects with the same error", async () => {
    const failing = new ProviderError("overloaded", 529);
    const agent = createAgent({ model: fakeProvider([{ error: failing }]), codec: nativeCodec() });
    await expect(agent.send("hi")).rejects.toBe(failing);
  });

  it("a codec error is thrown only once its repairs are used up", async () => {
    const model = fakeProvider([textTurn('{"tool": oops')]);
    const agent = createAgent({ model, codec: jsonCodec(), maxDecodeRetries: 1 });
    const { types, thrown } = await drainThrowing(agent.run("hi"));
    expect(thrown).toBeInstanceOf(CodecError);
    expect(types.filter((type) => type === "error")).toHaveLength(2);
    await expect(agent.send("hi")).rejects.toBeInstanceOf(CodecError);
  });

  it("a run that ends normally or by max turns still returns its result", async () => {
    const agent = createAgent({ model: fakeProvider([textTurn("done")]), codec: nativeCodec() });
    expect((await agent.send("hi")).stopReason).toBe("stop");
    const { types, thrown } = await drainThrowing(agent.run("again"));
    expect(thrown).toBeUndefined();
    expect(types.at(-1)).toBe("done");
  });

  it("runAsync keeps the whole stream: its events end with done(error), wait() resolves", async () => {
    const agent = createAgent({
      model: fakeProvider([{ error: new ProviderError("x", 500) }]),
      codec: nativeCodec(),
    });
    const handle = agent.runAsync("hi");
    const types: string[] = [];
    for await (const event of handle.events) types.push(event.type);
    expect(types.at(-1)).toBe("done");
    expect((await handle.wait()).stopReason).toBe("error");
  });
});
