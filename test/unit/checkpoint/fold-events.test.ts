import { describe, expect, it } from "vitest";
import { foldEvents } from "../../../src/kernel/checkpoint/fold-events.js";
import { storeEvents } from "../../../src/kernel/checkpoint/store-events.js";
import {
  assistantMessage,
  toolCallBlock,
  toolResultBlock,
  userMessage,
  type Message,
} from "../../../src/kernel/vocabulary/messages.js";
import type { SessionEvent } from "../../../src/kernel/vocabulary/session-events.js";

const user = (text: string): SessionEvent => ({ type: "user", message: userMessage(text) });
const assistant = (message: Message): SessionEvent => ({ type: "assistant", message });
const result = (id: string, content: string, turn = 1): SessionEvent => ({
  type: "tool_result",
  result: toolResultBlock(id, content),
  turn,
});

describe("foldEvents", () => {
  it("merges consecutive tool_result events into one user message, flushed by the next message", () => {
    const call = assistantMessage([toolCallBlock("a", "x", {}), toolCallBlock("b", "y", {})]);
    const messages = foldEvents([
      user("go"),
      assistant(call),
      result("a", "A"),
      result("b", "B"),
      assistant(assistantMessage("done")),
    ]);
    expect(messages).toEqual([
      userMessage("go"),
      call,
      { role: "user", content: [toolResultBlock("a", "A"), toolResultBlock("b", "B")] },
      assistantMessage("done"),
    ]);
  });

  it("flushes trailing tool results at the end, and a user event flushes a group too", () => {
    const messages = foldEvents([result("a", "A"), user("next"), result("b", "B")]);
    expect(messages).toEqual([
      { role: "user", content: [toolResultBlock("a", "A")] },
      userMessage("next"),
      { role: "user", content: [toolResultBlock("b", "B")] },
    ]);
  });

  it("resets the transcript to the summary's messages", () => {
    const summary: SessionEvent = {
      type: "summary",
      messages: [userMessage("[Summary of earlier conversation] hi")],
      throughSeq: 3,
      before: 3,
      after: 1,
    };
    const messages = foldEvents([
      user("one"),
      assistant(assistantMessage("two")),
      result("a", "A"),
      summary,
      user("three"),
    ]);
    expect(messages).toEqual([userMessage("[Summary of earlier conversation] hi"), userMessage("three")]);
  });

  it("does not let later pushes alias the summary's own array", () => {
    const summaryMessages = [userMessage("s")];
    foldEvents([
      { type: "summary", messages: summaryMessages, throughSeq: 1, before: 1, after: 1 },
      user("after"),
    ]);
    expect(summaryMessages).toEqual([userMessage("s")]);
  });

  it("skips sidecar events without breaking a tool-result group", () => {
    const messages = foldEvents([
      { type: "tool_started", id: "a", name: "x", turn: 1 },
      result("a", "A"),
      { type: "file_snapshot", path: "f.txt", before: null, turn: 1 },
      { type: "artifact_verified", path: "f.txt", command: "npm test", result: "ok", turn: 1 },
      {
        type: "permission_decision",
        call: { id: "b", name: "y", input: {} },
        decision: "allow",
        by: "policy",
        turn: 1,
      },
      {
        type: "context_view",
        view: {
          generation: 1,
          facts: [],
          workingState: {},
          segments: [],
          archiveRefs: [],
          messages: [userMessage("view")],
          prefixFingerprint: "f",
        },
        throughSeq: 1,
      },
      result("b", "B"),
    ]);
    expect(messages).toEqual([
      { role: "user", content: [toolResultBlock("a", "A"), toolResultBlock("b", "B")] },
    ]);
  });

  it("accepts stored events as well as bare session events", () => {
    const events = [user("hi"), assistant(assistantMessage("hello"))];
    expect(foldEvents(storeEvents("s", 0, events, "1970-01-01T00:00:00.000Z"))).toEqual(foldEvents(events));
    expect(foldEvents(storeEvents("s", 0, events, "1970-01-01T00:00:00.000Z"))).toHaveLength(2);
  });
});
