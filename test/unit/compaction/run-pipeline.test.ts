import { describe, expect, it } from "vitest";
import { runPipeline } from "../../../src/kernel/compaction/run-pipeline.js";
import type { CompactPass } from "../../../src/kernel/compaction/types.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { prompt } from "./fixtures.js";

const append = (text: string): CompactPass => ({
  name: text,
  apply: (messages) => [...messages, prompt(text)],
});
const noop: CompactPass = { name: "noop", apply: (messages) => messages };

describe("runPipeline", () => {
  it("feeds each pass the previous pass's output, in order", () => {
    const out = runPipeline([append("a"), noop, append("b")], [prompt("start")]);
    expect(out).toEqual([prompt("start"), prompt("a"), prompt("b")]);
  });

  it("returns the input array when no pass changed anything", () => {
    const messages: Message[] = [prompt("hi")];
    expect(runPipeline([noop, noop], messages)).toBe(messages);
    expect(runPipeline([], messages)).toBe(messages);
  });
});
