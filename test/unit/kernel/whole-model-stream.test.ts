import { describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import { ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import type { AbortSignalLike } from "../../../src/kernel/vocabulary/ports.js";
import { wholeModelStream } from "../../../src/kernel/phases/whole-model-stream.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { z } from "zod";
import { collect, eventTypes, kernelOf } from "../../support/collect.js";

const done = (text: string): ModelChunk => ({
  type: "message_done",
  message: { role: "assistant", content: [{ type: "text", text }] },
  usage: { inputTokens: 1, outputTokens: 1 },
});

/** A provider that hands `inner`'s chunks over whole, as the durable model does, counting its loads. */
function wholeProvider(inner: ModelProvider): ModelProvider & { loads: number } {
  const provider = {
    id: inner.id,
    loads: 0,
    stream: (request: ModelRequest, signal?: AbortSignalLike) =>
      wholeModelStream(
        async () => {
          provider.loads++;
          const chunks: ModelChunk[] = [];
          for await (const chunk of inner.stream(request, signal)) chunks.push(chunk);
          return chunks;
        },
        (chunks) => chunks,
      ),
  };
  return provider;
}

describe("a whole model stream", () => {
  it("loads once, maps once, and every settle sees the same chunks", async () => {
    let loads = 0;
    let maps = 0;
    const stream = wholeModelStream(
      () => Promise.resolve(++loads),
      (value) => {
        maps++;
        return [{ type: "text_delta", text: `call ${value}` }, done(`call ${value}`)];
      },
    );
    const first = await stream.settle(
      (chunks) => chunks,
      () => [],
    );
    const second = await stream.settle(
      (chunks) => chunks.length,
      () => -1,
    );
    expect(first[0]).toEqual({ type: "text_delta", text: "call 1" });
    expect(second).toBe(2);
    expect([loads, maps]).toEqual([1, 1]);
  });

  it("hands a rejection, as failureOf made it, to fail, and so does a mapping that throws", async () => {
    const rejected = wholeModelStream(
      () => Promise.reject(new Error("wire")),
      () => [],
      (error) => new ProviderError(`provider: ${(error as Error).message}`, 503),
    );
    const failure = await rejected.settle(
      () => "ok",
      (error) => (error as Error).message,
    );
    expect(failure).toBe("provider: wire");
    const broken = wholeModelStream(
      () => Promise.resolve(1),
      () => {
        throw new Error("unmappable");
      },
    );
    expect(
      await broken.settle(
        () => "ok",
        (error) => (error as Error).message,
      ),
    ).toBe("unmappable");
  });

  it("iterates like any stream: its chunks in order, or the failure thrown", async () => {
    const chunks: ModelChunk[] = [];
    for await (const chunk of wholeModelStream(
      () => Promise.resolve("hi"),
      (text) => [done(text)],
    )) {
      chunks.push(chunk);
    }
    expect(chunks).toEqual([done("hi")]);
    const failing = wholeModelStream(
      () => Promise.reject(new Error("gone")),
      () => [],
    );
    await expect(async () => {
      for await (const chunk of failing) chunks.push(chunk);
    }).rejects.toThrow("gone");
  });

  it("runs a tool turn and an answer with the events and messages of a chunked stream", async () => {
    const add = defineTool({
      name: "add",
      description: "adds",
      schema: z.object({ a: z.number() }),
      execute: ({ a }) => String(a + 1),
    });
    const turns = () => [toolCallTurn([{ id: "c1", name: "add", input: { a: 1 } }]), textTurn("two")];
    const chunked = await collect(
      createAgent({ model: fakeProvider(turns()), codec: nativeCodec(), tools: [add] }).run("go"),
    );
    const model = wholeProvider(fakeProvider(turns()));
    const whole = await collect(createAgent({ model, codec: nativeCodec(), tools: [add] }).run("go"));
    expect(model.loads).toBe(2);
    expect(eventTypes(whole.events, { collapseDeltas: true })).toEqual(
      eventTypes(chunked.events, { collapseDeltas: true }),
    );
    expect(whole.result.messages).toEqual(chunked.result.messages);
    expect(whole.result.text).toBe("two");
  });

  it("a call that fails ends the run with the provider's error and the call's end", async () => {
    const model = wholeProvider(fakeProvider([{ error: new ProviderError("bad request", 400) }]));
    const { events, result } = await collect(
      kernelOf(createAgent({ model, codec: nativeCodec() })).run("go"),
    );
    const end = events.find((event) => event.type === "model_call_end");
    expect(end).toMatchObject({ error: "bad request" });
    expect(events.find((event) => event.type === "error")).toMatchObject({ fatal: true });
    expect(result.stopReason).toBe("error");
  });
});
