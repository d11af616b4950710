import { describe, expect, it } from "vitest";
import { AbortError, ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import { assistantMessage, textBlock, userMessage } from "../../../src/kernel/vocabulary/messages.js";
import type { ModelChunk, ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import type { AbortSignalLike } from "../../../src/kernel/vocabulary/ports.js";
import { fakeProvider, type FakeProvider } from "../../../src/providers/fake-provider.js";

function request(text = "hi"): ModelRequest {
  return { model: "test-model", messages: [userMessage(text)] };
}

async function collect(
  provider: FakeProvider,
  req = request(),
  signal?: AbortSignalLike,
): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of provider.stream(req, signal)) chunks.push(chunk);
  return chunks;
}

/** Collects chunks until the stream fails, returning both. */
async function collectUntilError(stream: AsyncIterable<ModelChunk>) {
  const chunks: ModelChunk[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
  } catch (error) {
    return { chunks, error };
  }
  return { chunks, error: undefined };
}

const hello = { text: "Hey", message: assistantMessage([textBlock("Hey")]) };

describe("fakeProvider", () => {
  it("has the id 'fake' and streams text one character at a time, then one message_done", async () => {
    const provider = fakeProvider([hello]);
    expect(provider.id).toBe("fake");

    const chunks = await collect(provider);

    expect(chunks).toEqual([
      { type: "text_delta", text: "H" },
      { type: "text_delta", text: "e" },
      { type: "text_delta", text: "y" },
      { type: "message_done", message: hello.message, usage: { inputTokens: 0, outputTokens: 0 } },
    ]);
  });

  it("keeps surrogate pairs together in one delta", async () => {
    const chunks = await collect(fakeProvider([{ text: "a😀", message: assistantMessage("a😀") }]));
    expect(chunks.filter((c) => c.type === "text_delta").map((c) => c.text)).toEqual(["a", "😀"]);
  });

  it("streams reasoning before text and reports the scripted usage", async () => {
    const usage = { inputTokens: 12, outputTokens: 3, cacheReadTokens: 4 };
    const provider = fakeProvider([{ reasoning: "hm", text: "ok", message: assistantMessage("ok"), usage }]);

    const chunks = await collect(provider);

    expect(chunks.map((c) => ("text" in c ? `${c.type}:${c.text}` : c.type))).toEqual([
      "reasoning_delta:h",
      "reasoning_delta:m",
      "text_delta:o",
      "text_delta:k",
      "message_done",
    ]);
    expect(chunks.at(-1)).toMatchObject({ type: "message_done", usage });
  });

  it("streams no deltas when a turn has no text", async () => {
    const chunks = await collect(fakeProvider([{ message: assistantMessage("silent") }]));
    expect(chunks.map((c) => c.type)).toEqual(["message_done"]);
  });

  it("plays turns in order and, with onExhausted: 'throw', fails loudly when the script runs out", async () => {
    const second = { text: "B", message: assistantMessage("B") };
    const provider = fakeProvider([hello, second], { onExhausted: "throw" });
    await collect(provider);
    expect((await collect(provider)).at(-1)).toMatchObject({ message: second.message });

    await expect(collect(provider)).rejects.toThrow(
      "fakeProvider: script exhausted after 2 turns (request #3)",
    );
    await expect(collect(provider)).rejects.toThrow(
      "fakeProvider: script exhausted after 2 turns (request #4)",
    );
  });

  it("raises the exhaustion as a plain Error, not a retryable ProviderError", async () => {
    const { error } = await collectUntilError(fakeProvider([]).stream(request()));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe("fakeProvider: script exhausted after 0 turns (request #1)");
  });

  it("repeats the last turn by default, as the seed's does", async () => {
    const last = { text: "Z", message: assistantMessage("Z") };
    const provider = fakeProvider([hello, last]);
    await collect(provider);
    for (let i = 0; i < 3; i++)
      expect((await collect(provider)).at(-1)).toMatchObject({ message: last.message });
  });

  it("repeats the last turn with onExhausted: 'repeat-last'", async () => {
    const last = { text: "Z", message: assistantMessage("Z") };
    const provider = fakeProvider([hello, last], { onExhausted: "repeat-last" });
    await collect(provider);
    await collect(provider);

    const third = await collect(provider);
    const fourth = await collect(provider);

    expect(third).toEqual(fourth);
    expect(third).toEqual([
      { type: "text_delta", text: "Z" },
      expect.objectContaining({ message: last.message }),
    ]);
  });

  it("hands out a fresh message per call so edits do not leak into a repeated turn", async () => {
    const provider = fakeProvider([hello], { onExhausted: "repeat-last" });
    const first = (await collect(provider)).at(-1);
    if (first?.type === "message_done" && Array.isArray(first.message.content))
      first.message.content.push(textBlock("!"));

    expect((await collect(provider)).at(-1)).toMatchObject({ message: { content: [textBlock("Hey")] } });
  });

  it("records every request, unaffected by later edits to the history", async () => {
    const provider = fakeProvider([hello], { onExhausted: "repeat-last" });
    const first = request("one");
    await collect(provider, first);
    first.messages.push(userMessage("later"));
    await collect(provider, request("two"));

    expect(provider.requests).toEqual([request("one"), request("two")]);
  });

  it("computes a function turn from the request and its index", async () => {
    const provider = fakeProvider([
      (req, index) => ({ text: `${index}`, message: assistantMessage(`${req.model}#${index}`) }),
    ]);

    const chunks = await collect(provider);

    expect(chunks).toEqual([
      { type: "text_delta", text: "0" },
      {
        type: "message_done",
        message: assistantMessage("test-model#0"),
        usage: { inputTokens: 0, outputTokens: 0 },
      },
    ]);
  });

  it("throws an error turn before any chunk", async () => {
    const error = new ProviderError("rate limited", 429);
    const provider = fakeProvider([{ error }, hello]);

    const failed = await collectUntilError(provider.stream(request()));

    expect(failed).toEqual({ chunks: [], error });
    expect(await collect(provider)).toHaveLength(4);
  });

  it("throws mid-stream after errorAfterChars characters", async () => {
    const error = new ProviderError("connection reset", 503);
    const provider = fakeProvider([{ text: "abcdef", errorAfterChars: 2, error }]);

    const failed = await collectUntilError(provider.stream(request()));

    expect(failed.chunks).toEqual([
      { type: "text_delta", text: "a" },
      { type: "text_delta", text: "b" },
    ]);
    expect(failed.error).toBe(error);
  });

  it("stops streaming with an AbortError when the signal aborts between chunks", async () => {
    const controller = new AbortController();
    const provider = fakeProvider([{ text: "abcdef", message: assistantMessage("abcdef") }]);
    const chunks: ModelChunk[] = [];

    const run = async () => {
      for await (const chunk of provider.stream(request(), controller.signal)) {
        chunks.push(chunk);
        if (chunks.length === 2) controller.abort();
      }
    };

    await expect(run()).rejects.toBeInstanceOf(AbortError);
    expect(chunks).toHaveLength(2);
  });

  it("yields nothing when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const failed = await collectUntilError(fakeProvider([hello]).stream(request(), controller.signal));
    expect(failed.chunks).toEqual([]);
    expect(failed.error).toBeInstanceOf(AbortError);
  });

  it("advertises context capabilities and a custom id when given", () => {
    const provider = fakeProvider([hello], { id: "fake-2", context: { contextWindow: 1000 } });
    expect(provider.id).toBe("fake-2");
    expect(provider.context).toEqual({ contextWindow: 1000 });
    expect(fakeProvider([hello]).context).toBeUndefined();
  });
});
