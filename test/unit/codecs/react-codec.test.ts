import { describe, expect, it } from "vitest";
import { reactCodec } from "../../../src/kernel/codecs/react-codec.js";
import { CodecError } from "../../../src/kernel/vocabulary/errors.js";
import type { AssistantMessage } from "../../../src/kernel/vocabulary/messages.js";
import type { ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import type { ToolSpec } from "../../../src/kernel/vocabulary/tools.js";

const tools: ToolSpec[] = [{ name: "echo", description: "Echoes text", parameters: { type: "object" } }];
const reply = (text: string): AssistantMessage => ({ role: "assistant", content: [{ type: "text", text }] });
const decode = (text: string) => reactCodec().decode(reply(text));

const request: ModelRequest = {
  model: "local",
  system: "base",
  tools,
  toolChoice: "required",
  messages: [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "I should echo" },
        { type: "tool_call", id: "c1", name: "echo", input: { v: 1 } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", id: "c1", content: "one" },
        { type: "tool_result", id: "c2", content: "boom", isError: true },
      ],
    },
    { role: "assistant", content: [{ type: "tool_call", id: "c3", name: "echo", input: {} }] },
  ],
};

describe("reactCodec encode", () => {
  it("appends the ReAct protocol, catalogue and instructions to system and strips native tools", () => {
    const encoded = reactCodec({ instructions: "Think briefly." }).encode(request, tools);
    expect(encoded.system!.startsWith("base\n\nReply in one of these two forms.\n")).toBe(true);
    expect(encoded.system).toContain(
      'Thought: <your reasoning>\nAction: <tool name>\nAction Input: {"argument":"value"}',
    );
    expect(encoded.system).toContain("Final Answer: <your answer>");
    expect(encoded.system).toContain("Call at most one tool per response");
    expect(encoded.system).toContain('- echo: Echoes text\n  input schema: {"type":"object"}');
    expect(encoded.system!.endsWith("\nThink briefly.")).toBe(true);
    expect("tools" in encoded).toBe(false);
    expect("toolChoice" in encoded).toBe(false);
  });

  it("renders past calls as Thought/Action/Action Input and results as Observation lines", () => {
    expect(reactCodec().encode(request, tools).messages).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: 'Thought: I should echo\nAction: echo\nAction Input: {"v":1}' },
      { role: "user", content: "Observation [c1]: one\nObservation [c2] (error): boom" },
      { role: "assistant", content: "Action: echo\nAction Input: {}" },
    ]);
  });
});

describe("reactCodec decode", () => {
  it("reads an action with its JSON input and keeps the thought as text", () => {
    const decoded = decode('Thought: I need to echo\nAction: echo\nAction Input: {"v":3}');
    expect(decoded.text).toBe("I need to echo");
    expect(decoded.calls).toEqual([
      { id: expect.stringMatching(/^call_[0-9a-f]{16}$/), name: "echo", input: { v: 3 } },
    ]);
  });

  it("reads a final answer", () => {
    expect(decode("Thought: easy\nFinal Answer: complete\nsecond line")).toEqual({
      text: "complete\nsecond line",
      calls: [],
    });
    expect(decode("final answer: lower case")).toEqual({ text: "lower case", calls: [] });
  });

  it("accepts fenced input and a quoted tool name, and ignores an invented observation and later actions", () => {
    const decoded = decode(
      'Action: `echo`\nAction Input: ```json\n{"v":"a}"}\n```\nObservation: fake\nAction: echo\nAction Input: {"v":9}',
    );
    expect(decoded.calls.map(({ name, input }) => ({ name, input }))).toEqual([
      { name: "echo", input: { v: "a}" } },
    ]);
    expect(decode('Action: echo\nAction Input: {"v":1}\nObservation: 1\nFinal Answer: 1').calls).toHaveLength(
      1,
    );
  });

  it("takes text with neither marker as the final answer", () => {
    expect(decode("  Just an answer.  ")).toEqual({ text: "Just an answer.", calls: [] });
  });

  it("gives the same id for the same response and different ids for different ones", () => {
    const text = 'Action: echo\nAction Input: {"v":1}';
    const id = decode(text).calls[0]!.id;
    expect(decode(text).calls[0]!.id).toBe(id);
    expect(decode('Action: echo\nAction Input: {"v":2}').calls[0]!.id).not.toBe(id);
  });

  it("throws CodecError on a missing name, a missing Action Input and input that is not JSON", () => {
    const cases = [
      "Action: echo",
      "Action:\nAction Input: {}",
      "Action: echo\nAction Input:",
      "Action: echo\nAction Input: {v: 1}",
      'Action: echo\nAction Input: {"v":1',
      "Action: echo\nThought: hmm\nAction Input: {}",
    ];
    for (const text of cases) expect(() => decode(text), text).toThrow(CodecError);
  });
});

describe("reactCodec settings", () => {
  it("is named react, buffers its stream and repairs with a ReAct format reminder", () => {
    const codec = reactCodec();
    expect(codec.name).toBe("react");
    expect(codec.streaming).toBe("buffer");
    expect(codec.repairPrompt!(new CodecError("no input"), 1, tools).content).toBe(
      "Repair the malformed tool-call response and try again (no input). Available tools: echo. " +
        'Reply with either a line "Action: <tool name>" followed by a line "Action Input: <JSON object>", ' +
        'or a line "Final Answer: <answer>". Repair attempt 1.',
    );
  });
});
