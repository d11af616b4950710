import { describe, expect, it } from "vitest";
import { ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import {
  assistantMessage,
  textBlock,
  toolCallBlock,
  userMessage,
} from "../../../src/kernel/vocabulary/messages.js";
import type { ModelChunk } from "../../../src/kernel/vocabulary/model.js";
import { scriptedProvider } from "../../../src/providers/scripted-provider.js";
import type { FakeProvider } from "../../../src/providers/fake-provider.js";

async function collect(provider: FakeProvider): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of provider.stream({ model: "m", messages: [userMessage("go")] }))
    chunks.push(chunk);
  return chunks;
}

function finalOf(chunks: ModelChunk[]) {
  const last = chunks.at(-1);
  if (last?.type !== "message_done") throw new Error("no message_done");
  return last;
}

describe("scriptedProvider", () => {
  it("turns a text step into a streamed text-only assistant message", async () => {
    const chunks = await collect(
      scriptedProvider([{ text: "ok", usage: { inputTokens: 5, outputTokens: 2 } }]),
    );

    expect(chunks).toEqual([
      { type: "text_delta", text: "o" },
      { type: "text_delta", text: "k" },
      {
        type: "message_done",
        message: assistantMessage([textBlock("ok")]),
        usage: { inputTokens: 5, outputTokens: 2 },
      },
    ]);
  });

  it("builds tool_call blocks with ids call_<turn>_<i> unless given", async () => {
    const provider = scriptedProvider([
      { text: "first" },
      {
        text: "Reading.",
        toolCalls: [
          { name: "read", input: { path: "a" } },
          { name: "read", input: { path: "b" }, id: "mine" },
          { name: "ls", input: {} },
        ],
      },
    ]);
    await collect(provider);

    const chunks = await collect(provider);

    expect(
      chunks
        .filter((c) => c.type === "text_delta")
        .map((c) => c.text)
        .join(""),
    ).toBe("Reading.");
    expect(finalOf(chunks)).toEqual({
      type: "message_done",
      message: assistantMessage([
        textBlock("Reading."),
        toolCallBlock("call_2_0", "read", { path: "a" }),
        toolCallBlock("mine", "read", { path: "b" }),
        toolCallBlock("call_2_2", "ls", {}),
      ]),
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it("streams nothing but message_done for a tool step without text", async () => {
    const chunks = await collect(scriptedProvider([{ toolCalls: [{ name: "ping", input: null }] }]));
    expect(chunks).toHaveLength(1);
    expect(finalOf(chunks).message).toEqual(assistantMessage([toolCallBlock("call_1_0", "ping", null)]));
  });

  it("fails an error step before any chunk", async () => {
    const error = new ProviderError("busy", 503);
    await expect(collect(scriptedProvider([{ error }]))).rejects.toBe(error);
  });

  it("fails loudly when the script runs out, or repeats the last step when asked", async () => {
    const strict = scriptedProvider([{ text: "a" }], { onExhausted: "throw" });
    await collect(strict);
    await expect(collect(strict)).rejects.toThrow(
      "fakeProvider: script exhausted after 1 turns (request #2)",
    );

    const lenient = scriptedProvider([{ text: "a" }]);
    await collect(lenient);
    expect(finalOf(await collect(lenient)).message).toEqual(assistantMessage([textBlock("a")]));
    expect(lenient.requests).toHaveLength(2);
  });
});
