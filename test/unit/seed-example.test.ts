// The example of seed document 000 ("内核"), with only its import path changed.
import { afterEach, expect, it, vi } from "vitest";
import { createAgent, nativeCodec, fakeProvider, textBlock } from "../../src/index.js";

afterEach(() => vi.restoreAllMocks());

it("runs the seed's createAgent example unchanged", async () => {
  const written: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation(
    (chunk: string | Uint8Array) => (written.push(String(chunk)), true),
  );

  const agent = createAgent({
    model: fakeProvider([{ text: "hi", message: { role: "assistant", content: [textBlock("hi")] } }]),
    codec: nativeCodec(),
  });

  for await (const ev of agent.run("hello", { signal: AbortSignal.timeout(30_000) })) {
    if (ev.type === "text_delta") process.stdout.write(ev.text);
  }

  vi.restoreAllMocks();
  expect(written.join("")).toBe("hi");
});
