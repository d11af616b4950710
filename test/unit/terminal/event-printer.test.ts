import { describe, expect, it } from "vitest";
import { EventPrinter, excerpt, formatUsage } from "../../../src/terminal/event-printer.js";
import { AgentError } from "../../../src/kernel/vocabulary/errors.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import { assistantMessage, textBlock } from "../../../src/kernel/vocabulary/messages.js";

function render(events: AgentEvent[], options: { color?: boolean } = {}): string {
  let out = "";
  const printer = new EventPrinter({ write: (text) => (out += text), resultChars: 20, ...options });
  for (const event of events) printer.print(event);
  return out;
}

const call = { id: "c1", name: "read_file", input: { path: "sales.csv" } };
const done: AgentEvent = {
  type: "done",
  reason: "stop",
  result: {
    messages: [],
    text: "",
    usage: { inputTokens: 120, outputTokens: 30, cacheReadTokens: 100 },
    stopReason: "stop",
  },
};

describe("EventPrinter", () => {
  it("prints turn headers, streamed text, tool calls with arguments, cut results and a closing usage line", () => {
    const out = render([
      { type: "turn_start", turn: 1 },
      { type: "text_delta", text: "Reading" },
      { type: "text_delta", text: " the file." },
      { type: "message", message: assistantMessage([textBlock("Reading the file.")]) },
      { type: "tool_call_start", call, turn: 1 },
      {
        type: "tool_result",
        result: { id: "c1", name: "read_file", content: "month,region\n2024-01,North\n2024-02,South" },
      },
      { type: "turn_start", turn: 2 },
      { type: "text_delta", text: "Done.\n" },
      done,
    ]);
    expect(out).toBe(
      [
        "── turn 1 ──",
        "Reading the file.",
        '  → read_file {"path":"sales.csv"}',
        "  ← read_file: month,region ⏎ 2024-… (40 chars)",
        "── turn 2 ──",
        "Done.",
        "── done: stop · 2 turns · 1 tool call · tokens 120 in, 100 cached / 30 out ──",
        "",
      ].join("\n"),
    );
  });

  it("shows the text of a message that was not streamed, once", () => {
    const out = render([
      { type: "turn_start", turn: 1 },
      { type: "message", message: assistantMessage([textBlock("Hi.")]) },
      done,
    ]);
    expect(out).toContain("── turn 1 ──\nHi.\n── done");
  });

  it("marks error results, recovered tools, errors and diagnostics", () => {
    const out = render([
      {
        type: "tool_result",
        result: { id: "c1", name: "read_file", content: "error: no file", isError: true },
      },
      { type: "tool_recovered", id: "c2", name: "calculate", turn: 1 },
      { type: "error", error: new AgentError("model unreachable"), fatal: true },
      { type: "diagnostic", level: "warning", code: "codec.repair", message: "fixed the JSON" },
    ]);
    expect(out.split("\n")).toEqual([
      "  ✗ read_file: error: no file",
      "  ↻ calculate was interrupted by a crash; recovered",
      "  ! fatal error: model unreachable",
      "  · warning codec.repair: fixed the JSON",
      "",
    ]);
  });

  it("uses ANSI colours only when asked", () => {
    const events: AgentEvent[] = [{ type: "turn_start", turn: 1 }];
    expect(render(events)).not.toContain("\u001b[");
    expect(render(events, { color: true })).toContain("\u001b[36m");
  });
});

describe("excerpt and formatUsage", () => {
  it("puts text on one line and cuts it, saying how long it was", () => {
    expect(excerpt("a\n  b\r\nc", 50)).toBe("a ⏎ b ⏎ c");
    expect(excerpt("abcdef", 3)).toBe("abc… (6 chars)");
  });

  it("leaves the cache count out when there is none", () => {
    expect(formatUsage({ inputTokens: 5, outputTokens: 2 })).toBe("5 in / 2 out");
  });
});
