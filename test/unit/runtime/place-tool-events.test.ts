import { describe, expect, it } from "vitest";
import type { ToolEventBatch, ToolEventCursor } from "../../../src/common/tool-event-batch.js";
import type { WireEvent } from "../../../src/common/wire-event.js";
import { parseToolEventId, placeToolEvents, toolEventId } from "../../../src/runtime/place-tool-events.js";
import type { LoggedEntry } from "../../../src/workflows/event-log.js";

const note = (message: string): WireEvent => ({ type: "diagnostic", level: "info", code: "t", message });
const entry = (offset: number, message: string): LoggedEntry => ({
  offset,
  entry: { runId: "r", event: note(message) },
});
const batch = (fields: Partial<ToolEventBatch>, ...messages: string[]): ToolEventBatch => ({
  key: "k",
  runId: "r",
  attempt: 1,
  at: 0,
  events: messages.map(note),
  ...fields,
});
const messages = (entries: LoggedEntry[]) =>
  entries.map((item) => (item.entry.event as { message: string }).message);

describe("placeToolEvents", () => {
  it("puts a call's events right after its start when the start is in the same answer", () => {
    const cursor: ToolEventCursor = {};
    const items = [entry(5, "start"), entry(6, "other"), entry(7, "end")];
    const placed = placeToolEvents(items, [batch({ startOffset: 5, endOffset: 7 }, "a", "b")], 5, cursor);
    expect(messages(placed)).toEqual(["start", "a", "b", "other", "end"]);
    expect(placed[1]!.offset).toBe(5);
    expect(cursor).toEqual({ k: 2 });
  });

  it("puts them first when the start came in an earlier answer, and shows each only once", () => {
    const cursor: ToolEventCursor = { k: 1 };
    const placed = placeToolEvents([entry(8, "end")], [batch({ startOffset: 5 }, "a", "b")], 8, cursor);
    expect(messages(placed)).toEqual(["b", "end"]);
    expect(placed[0]!.offset).toBe(7);
  });

  it("holds events whose start the answer does not reach, and drops those of a call the reader passed", () => {
    const cursor: ToolEventCursor = {};
    const ahead = batch({ key: "ahead", startOffset: 9 }, "x");
    const past = batch({ key: "past", startOffset: 1, endOffset: 2 }, "y");
    expect(messages(placeToolEvents([entry(5, "e")], [ahead, past], 5, cursor))).toEqual(["e"]);
    expect(cursor).toEqual({ past: 1 });
  });

  it("marks each placed event with its id (the call and how many of its events it completes); entries keep none", () => {
    const cursor: ToolEventCursor = { k: 1 };
    const placed = placeToolEvents([entry(8, "end")], [batch({ startOffset: 5 }, "a", "b", "c")], 8, cursor);
    expect(placed.map((item) => item.deltaId)).toEqual([toolEventId("k", 2), toolEventId("k", 3), undefined]);
  });

  it("a resumed reader's cursor from the last id it saw: the call's later events only", () => {
    const key = JSON.stringify(["run|1", 2, "call|x"]);
    const seen = parseToolEventId(toolEventId(key, 1));
    expect(seen).toEqual({ key, seen: 1 });
    expect(parseToolEventId("r:1|text|12")).toBeUndefined();
    const cursor: ToolEventCursor = { [seen!.key]: seen!.seen };
    const placed = placeToolEvents([], [batch({ key, startOffset: 5 }, "a", "b")], 6, cursor);
    expect(messages(placed)).toEqual(["b"]);
  });
});
