import { describe, expect, it } from "vitest";
import { EventRenderer } from "../../../src/cli/render/event-renderer.js";
import { eventSummary } from "../../../src/cli/render/event-summary.js";
import { jsonEventLine } from "../../../src/cli/render/json-event-line.js";
import { ToolError } from "../../../src/kernel/vocabulary/errors.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import { assistantMessage, textBlock, toolCallBlock } from "../../../src/kernel/vocabulary/messages.js";

const call = { id: "c1", name: "delete_file", input: { path: "a.txt" } };
const usage = { inputTokens: 30, outputTokens: 8 };

function render(events: AgentEvent[]): string {
  let out = "";
  const renderer = new EventRenderer((text) => (out += text));
  for (const event of events) renderer.render(event);
  renderer.endLine();
  return out;
}

describe("EventRenderer", () => {
  it("streams text live and puts every tool call, approval and result on a line of its own, with usage at the end", () => {
    const out = render([
      { type: "turn_start", turn: 1 },
      { type: "text_delta", text: "Let me " },
      { type: "text_delta", text: "check." },
      {
        type: "message",
        message: assistantMessage([
          textBlock("Let me check."),
          toolCallBlock("c1", "delete_file", { path: "a.txt" }),
        ]),
      },
      { type: "tool_call_start", call, turn: 1 },
      { type: "approval_request", call, reason: "deletes data" },
      { type: "approval_resolved", id: "c1", decision: "allow", by: "user", actor: "alice", reason: "ok" },
      { type: "tool_result", result: { id: "c1", name: "delete_file", content: "deleted a.txt" } },
      { type: "turn_start", turn: 2 },
      { type: "message", message: assistantMessage("Done.") },
      { type: "done", reason: "stop", result: { messages: [], text: "Done.", usage, stopReason: "stop" } },
    ]);
    expect(out).toBe(
      [
        "Let me check.",
        '  → delete_file {"path":"a.txt"}',
        '  ? approval needed for delete_file {"path":"a.txt"} — deletes data · call c1',
        "  ✓ c1 allowed by alice (ok)",
        "  ← delete_file: deleted a.txt",
        "Done.",
        "── done: stop · 2 turns · 1 tool call · tokens 30 in / 8 out ──",
        "",
      ].join("\n"),
    );
  });

  it("shows denials, questions, answers, steers, errors and events lost", () => {
    const out = render([
      { type: "permission_decision", call, decision: "deny", by: "policy", reason: "no deletes" },
      { type: "approval_resolved", id: "c2", decision: "deny", by: "auto", reason: "approval timed out" },
      {
        type: "input_request",
        call: { id: "q1", name: "ask_user", input: {} },
        question: { question: "Which?", options: ["a", "b"], multiSelect: true },
      },
      { type: "input_resolved", id: "q1", answer: { selected: ["a", "b"] } },
      { type: "steer", messages: [{ role: "user", content: "be brief" }] },
      { type: "error", error: new ToolError("boom"), fatal: false },
      { type: "events_lost", from: 12, to: 40 },
    ]);
    expect(out.split("\n")).toEqual([
      "  ✗ delete_file denied by policy: no deletes",
      "  ✗ c2 denied by auto (approval timed out)",
      "  ? question q1: Which? [a, b] (several)",
      "  ✓ q1 answered: a, b",
      "  ↪ steered: be brief",
      "  ! error: boom",
      "  ! events 12–39 can no longer be read (their history was deleted)",
      "",
    ]);
  });
});

describe("eventSummary", () => {
  it("has no line for deltas, timings and turn ends", () => {
    const quiet: AgentEvent[] = [
      { type: "text_delta", text: "x" },
      { type: "model_call_start", turn: 1, model: "m" },
      { type: "tool_call_end", id: "c1", name: "x", turn: 1, durationMs: 3, isError: false },
      { type: "turn_end", turn: 1, stopReason: "stop" },
      { type: "permission_decision", call, decision: "allow", by: "policy" },
    ];
    expect(quiet.map((event) => eventSummary(event))).toEqual(quiet.map(() => undefined));
  });
});

describe("jsonEventLine", () => {
  it("is one line of plain JSON with the session, run and offset; an error keeps its name and message", () => {
    const line = jsonEventLine(
      { type: "error", error: new ToolError("boom"), fatal: true, offset: 7, runId: "r1" },
      "s1",
    );
    expect(line.endsWith("\n")).toBe(true);
    expect(line.trimEnd()).not.toContain("\n");
    expect(JSON.parse(line)).toEqual({
      type: "error",
      error: { name: "ToolError", message: "boom" },
      fatal: true,
      sessionId: "s1",
      runId: "r1",
      offset: 7,
    });
  });
});
