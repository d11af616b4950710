import { describe, expect, it } from "vitest";
import { nativeCodec } from "../../../src/kernel/codecs/native-codec.js";
import { CodecError } from "../../../src/kernel/vocabulary/errors.js";
import type { AssistantMessage } from "../../../src/kernel/vocabulary/messages.js";
import type { ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import type { ToolSpec } from "../../../src/kernel/vocabulary/tools.js";

const tools: ToolSpec[] = [{ name: "echo", description: "Echoes", parameters: { type: "object" } }];

const request: ModelRequest = {
  model: "m",
  system: "be brief",
  messages: [
    { role: "user", content: "hi" },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "secret thoughts" },
        { type: "text", text: "calling" },
        { type: "tool_call", id: "c1", name: "echo", input: { v: 1 } },
      ],
    },
    { role: "user", content: [{ type: "tool_result", id: "c1", content: "1" }] },
  ],
};

describe("nativeCodec encode", () => {
  it("passes tools as native tools and leaves system and other fields alone", () => {
    const encoded = nativeCodec().encode(request, tools);
    expect(encoded.tools).toEqual(tools);
    expect(encoded.system).toBe("be brief");
    expect(encoded.model).toBe("m");
  });

  it("strips reasoning blocks from assistant messages without touching the input request", () => {
    const encoded = nativeCodec().encode(request, tools);
    expect(encoded.messages[1]!.content).toEqual([
      { type: "text", text: "calling" },
      { type: "tool_call", id: "c1", name: "echo", input: { v: 1 } },
    ]);
    expect(encoded.messages[0]).toBe(request.messages[0]);
    expect(encoded.messages[2]).toBe(request.messages[2]);
    expect((request.messages[1]!.content as unknown[]).length).toBe(3);
  });

  it("adds no tools field when there are no tools", () => {
    expect("tools" in nativeCodec().encode(request, [])).toBe(false);
  });
});

describe("nativeCodec decode", () => {
  it("reads text blocks and tool_call blocks, keeping the provider's ids", () => {
    const message: AssistantMessage = {
      role: "assistant",
      content: [
        { type: "text", text: "a" },
        { type: "reasoning", text: "hidden" },
        { type: "tool_call", id: "c1", name: "echo", input: { v: 1 } },
        { type: "text", text: "b" },
      ],
    };
    expect(nativeCodec().decode(message)).toEqual({
      text: "ab",
      calls: [{ id: "c1", name: "echo", input: { v: 1 } }],
    });
  });

  it("reads a string content as text with no calls", () => {
    expect(nativeCodec().decode({ role: "assistant", content: "hello" })).toEqual({
      text: "hello",
      calls: [],
    });
  });

  it("gives calls with an empty id deterministic ids: equal across decodes, distinct per call and per input", () => {
    const message = (v: number): AssistantMessage => ({
      role: "assistant",
      content: [
        { type: "tool_call", id: "", name: "echo", input: { v } },
        { type: "tool_call", id: "", name: "echo", input: { v } },
      ],
    });
    const first = nativeCodec().decode(message(1)).calls;
    const again = nativeCodec().decode(message(1)).calls;
    const other = nativeCodec().decode(message(2)).calls;
    expect(first[0]!.id).toMatch(/^call_[0-9a-f]{16}$/);
    expect(again).toEqual(first);
    expect(first[0]!.id).not.toBe(first[1]!.id);
    expect(other[0]!.id).not.toBe(first[0]!.id);
  });
});

describe("nativeCodec settings", () => {
  it("is named native, streams as passthrough and has the default repair prompt", () => {
    const codec = nativeCodec();
    expect(codec.name).toBe("native");
    expect(codec.streaming).toBe("passthrough");
    const repair = codec.repairPrompt!(new CodecError("bad"), 1, tools);
    expect(repair.content).toBe(
      "Repair the malformed tool-call response and try again (bad). Available tools: echo. Repair attempt 1.",
    );
  });
});
