import { describe, expect, it } from "vitest";
import { jsonCodec } from "../../../src/kernel/codecs/json-codec.js";
import { CodecError } from "../../../src/kernel/vocabulary/errors.js";
import type { AssistantMessage } from "../../../src/kernel/vocabulary/messages.js";
import type { ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import type { ToolSpec } from "../../../src/kernel/vocabulary/tools.js";

const tools: ToolSpec[] = [
  {
    name: "echo",
    description: "Echoes text",
    parameters: { type: "object", properties: { v: { type: "number" } } },
  },
];
const reply = (text: string): AssistantMessage => ({ role: "assistant", content: [{ type: "text", text }] });
const decode = (text: string) => jsonCodec().decode(reply(text));

const request: ModelRequest = {
  model: "local",
  system: "base",
  tools,
  toolChoice: "auto",
  messages: [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "hidden" },
        { type: "text", text: "thinking aloud" },
        { type: "tool_call", id: "old", name: "echo", input: { v: 1 } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", id: "old", content: "one" },
        { type: "tool_result", id: "old2", content: "boom", isError: true },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: "done" }] },
  ],
};

describe("jsonCodec encode", () => {
  it("appends the protocol, the tool catalogue and the instructions to the existing system prompt", () => {
    const encoded = jsonCodec({ instructions: "Batch reads." }).encode(request, tools);
    expect(encoded.system!.startsWith("base\n\nReply with exactly one JSON object and nothing else.\n")).toBe(
      true,
    );
    expect(encoded.system).toContain(
      '{"type":"tool_calls","calls":[{"name":"<tool name>","input":{<arguments>}}]}',
    );
    expect(encoded.system).toContain('{"type":"final","text":"<answer>"}');
    expect(encoded.system).toContain(
      '- echo: Echoes text\n  input schema: {"type":"object","properties":{"v":{"type":"number"}}}',
    );
    expect(encoded.system!.endsWith("\nBatch reads.")).toBe(true);
  });

  it("uses only the protocol as system when the request has none", () => {
    const { system: _system, ...noSystem } = request;
    expect(jsonCodec().encode(noSystem, tools).system!.startsWith("Reply with exactly one JSON object")).toBe(
      true,
    );
  });

  it("strips native tools and toolChoice", () => {
    const encoded = jsonCodec().encode(request, tools);
    expect("tools" in encoded).toBe(false);
    expect("toolChoice" in encoded).toBe(false);
    expect(encoded.model).toBe("local");
  });

  it("re-renders tool calls and tool results as JSON text and keeps plain messages", () => {
    const messages = jsonCodec().encode(request, tools).messages;
    expect(messages).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: '{"type":"tool_calls","calls":[{"name":"echo","input":{"v":1}}]}' },
      {
        role: "user",
        content:
          '{"type":"tool_results","results":[{"id":"old","content":"one","isError":false},' +
          '{"id":"old2","content":"boom","isError":true}]}',
      },
      { role: "assistant", content: "done" },
    ]);
  });

  it("puts a user message's own text before its rendered results and keeps its images", () => {
    const encoded = jsonCodec().encode(
      {
        model: "m",
        messages: [
          {
            role: "user",
            content: [
              { type: "tool_result", id: "a", content: "r" },
              { type: "text", text: "note" },
              { type: "image", mimeType: "image/png", data: "AAAA" },
            ],
          },
        ],
      },
      tools,
    );
    expect(encoded.messages[0]).toEqual({
      role: "user",
      content: [
        {
          type: "text",
          text: 'note\n{"type":"tool_results","results":[{"id":"a","content":"r","isError":false}]}',
        },
        { type: "image", mimeType: "image/png", data: "AAAA" },
      ],
    });
  });
});

describe("jsonCodec decode", () => {
  it("reads tool_calls and final responses", () => {
    const decoded = decode(
      '{"type":"tool_calls","calls":[{"name":"echo","input":{"v":1}},{"name":"echo","input":{}}]}',
    );
    expect(decoded.text).toBe("");
    expect(decoded.calls.map(({ name, input }) => ({ name, input }))).toEqual([
      { name: "echo", input: { v: 1 } },
      { name: "echo", input: {} },
    ]);
    expect(decode('{"type":"final","text":"done"}')).toEqual({ text: "done", calls: [] });
  });

  it("accepts the tool_calls, tool, name, arguments and args aliases, with arguments as a JSON string", () => {
    const call = (text: string) => decode(text).calls.map(({ name, input }) => ({ name, input }));
    expect(call('{"tool_calls":[{"tool":"echo","args":{"v":2}}]}')).toEqual([
      { name: "echo", input: { v: 2 } },
    ]);
    expect(call('{"tool":"echo","arguments":"{\\"v\\":3}"}')).toEqual([{ name: "echo", input: { v: 3 } }]);
    expect(call('{"name":"echo","input":{"v":4}}')).toEqual([{ name: "echo", input: { v: 4 } }]);
    expect(
      call('{"calls":[{"type":"function","function":{"name":"echo","arguments":"{\\"v\\":5}"}}]}'),
    ).toEqual([{ name: "echo", input: { v: 5 } }]);
    expect(call('{"calls":[{"name":" echo "}]}')).toEqual([{ name: "echo", input: {} }]);
  });

  it("reads fenced JSON, a protocol object inside prose, and ignores text after the object", () => {
    const fenced = decode('Sure:\n```json\n{"tool":"echo","input":{"v":6}}\n```\nThanks');
    expect(fenced.calls[0]).toMatchObject({ name: "echo", input: { v: 6 } });
    expect(decode('I will answer now. {"type":"final","text":"42"} Hope it helps.')).toEqual({
      text: "42",
      calls: [],
    });
    expect(decode('{"type":"final","text":"x"}\nObservation: invented')).toEqual({ text: "x", calls: [] });
  });

  it("takes prose with no protocol object, and JSON of another shape, as the final answer", () => {
    expect(decode("  The answer is 4.  ")).toEqual({ text: "The answer is 4.", calls: [] });
    expect(decode('{"answer":4}')).toEqual({ text: '{"answer":4}', calls: [] });
    expect(decode('{"text":"plain"}')).toEqual({ text: "plain", calls: [] });
    expect(decode("")).toEqual({ text: "", calls: [] });
  });

  it("keeps ids the model gives and derives stable, distinct ids otherwise", () => {
    const withId = decode('{"calls":[{"id":"mine","name":"echo","input":{}}]}');
    expect(withId.calls[0]!.id).toBe("mine");
    const raw = '{"calls":[{"name":"echo","input":{"v":1}},{"name":"echo","input":{"v":1}}]}';
    const first = decode(raw).calls;
    expect(first[0]!.id).toMatch(/^call_[0-9a-f]{16}$/);
    expect(decode(raw).calls).toEqual(first);
    expect(first[0]!.id).not.toBe(first[1]!.id);
    expect(decode('{"calls":[{"name":"echo","input":{"v":2}}]}').calls[0]!.id).not.toBe(first[0]!.id);
  });

  it("throws CodecError on bad JSON, a non-object, an empty or missing calls array and a missing name", () => {
    const cases = [
      '{"type":"tool_calls","calls":[',
      '{"type":"tool_calls","calls":[]}',
      '{"type":"tool_calls"}',
      '{"calls":{"name":"echo"}}',
      '{"calls":["echo"]}',
      '{"calls":[{"input":{}}]}',
      '{"tool":"","input":{}}',
      '{"tool":"echo","arguments":"{"}',
      '{"type":"final"}',
      "```json\n{'single': 'quotes'}\n```",
    ];
    for (const text of cases) expect(() => decode(text), text).toThrow(CodecError);
  });

  it("puts the raw response on the CodecError", () => {
    try {
      decode('{"type":"tool_calls","calls":[]}');
      expect.unreachable();
    } catch (error) {
      expect((error as CodecError).raw).toBe('{"type":"tool_calls","calls":[]}');
    }
  });
});

describe("jsonCodec settings", () => {
  it("is named json, buffers its stream and repairs with a JSON format reminder", () => {
    const codec = jsonCodec();
    expect(codec.name).toBe("json");
    expect(codec.streaming).toBe("buffer");
    const repair = codec.repairPrompt!(new CodecError("no calls"), 2, tools);
    expect(repair.role).toBe("user");
    expect(repair.content).toBe(
      "Repair the malformed tool-call response and try again (no calls). Available tools: echo. " +
        'Reply with exactly one JSON object: {"type":"tool_calls","calls":[{"name":"<tool name>","input":{}}]} ' +
        'or {"type":"final","text":"<answer>"}. Repair attempt 2.',
    );
  });
});
