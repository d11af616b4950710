import { expect, it } from "vitest";
import type { ModelChunk } from "../../../src/kernel/vocabulary/model.js";
import { REDACTED, SecretScrubber } from "../../../src/wire/scrub-secrets.js";
import { StreamScrubber, scrubModelStream } from "../../../src/wire/scrub-model-stream.js";

const SECRET = "gateway-key-0123456789";

/** Every split of the text into two and three pieces. */
function* splits(text: string): Generator<string[]> {
  for (let i = 0; i <= text.length; i++) {
    yield [text.slice(0, i), text.slice(i)];
    for (let j = i; j <= text.length; j += 3) yield [text.slice(0, i), text.slice(i, j), text.slice(j)];
  }
}

it("no piece shows a secret, however the text is split, and the pieces add up to the text scrubbed", () => {
  const scrubber = new SecretScrubber([SECRET]).byValue();
  const text = `echo: Authorization: Bearer ${SECRET} (twice: ${SECRET})`;
  for (const pieces of splits(text)) {
    const stream = new StreamScrubber(scrubber);
    const shown = [...pieces.map((piece) => stream.push(piece)), stream.end()];
    for (const piece of shown)
      for (let n = 4; n <= SECRET.length; n++) expect(piece).not.toContain(SECRET.slice(0, n));
    expect(shown.join("")).toBe(scrubber.scrub(text));
  }
});

it("shapes split across pieces are scrubbed whole", () => {
  const scrubber = new SecretScrubber();
  const stream = new StreamScrubber(scrubber);
  const shown = ["header: Bea", "rer abc", "DEF123", "456 done"].map((piece) => stream.push(piece));
  shown.push(stream.end());
  expect(shown.join("")).toBe(`header: Bearer ${REDACTED} done`);
  expect(shown.join("|")).not.toContain("abc");
});

async function* chunks(...items: ModelChunk[]): AsyncGenerator<ModelChunk> {
  yield* items;
}

it("scrubs a model stream's deltas and its final message, tool call inputs included", async () => {
  const scrubber = new SecretScrubber([SECRET]).byValue();
  const half = SECRET.length / 2;
  const out: ModelChunk[] = [];
  const stream = chunks(
    { type: "reasoning_delta", text: `thinking about ${SECRET.slice(0, half)}` },
    { type: "text_delta", text: `key: ${SECRET.slice(0, half)}` },
    { type: "text_delta", text: SECRET.slice(half) },
    { type: "reasoning_delta", text: SECRET.slice(half) },
    { type: "tool_call_delta", index: 0, id: "t1", name: "fetch", argumentsDelta: `{"auth":"${SECRET}` },
    { type: "tool_call_delta", index: 0, argumentsDelta: `"}` },
    {
      type: "message_done",
      message: {
        role: "assistant",
        content: [
          { type: "reasoning", text: `thinking about ${SECRET}` },
          { type: "text", text: `key: ${SECRET}` },
          { type: "tool_call", id: "t1", name: "fetch", input: { auth: SECRET, nested: [`x ${SECRET}`] } },
        ],
      },
      usage: { inputTokens: 1, outputTokens: 2 },
    } as ModelChunk,
  );
  for await (const chunk of scrubModelStream(stream, scrubber)) out.push(chunk);
  expect(JSON.stringify(out)).not.toContain(SECRET.slice(0, half));
  const joined = (type: string) =>
    out.map((chunk) => (chunk.type === type && "text" in chunk ? chunk.text : "")).join("");
  expect(joined("text_delta")).toBe(`key: ${REDACTED}`);
  expect(joined("reasoning_delta")).toBe(`thinking about ${REDACTED}`);
  const args = out
    .map((chunk) => (chunk.type === "tool_call_delta" ? (chunk.argumentsDelta ?? "") : ""))
    .join("");
  expect(args).toBe(`{"auth":"${REDACTED}"}`);
  const done = out.at(-1);
  expect(done?.type).toBe("message_done");
  expect(done?.type === "message_done" && done.message.content).toEqual([
    { type: "reasoning", text: `thinking about ${REDACTED}` },
    { type: "text", text: `key: ${REDACTED}` },
    { type: "tool_call", id: "t1", name: "fetch", input: { auth: REDACTED, nested: [`x ${REDACTED}`] } },
  ]);
});
