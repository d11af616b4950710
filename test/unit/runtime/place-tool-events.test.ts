import { describe, expect, it } from "vitest";
import type { ToolEventBatch, ToolEventCursor } from "../../../src/contract/stream/tool-event-batch.js";
import type { WireEvent } from "../../../src/contract/stream/wire-event.js";
import {
  parseToolEventId,
  placeToolEvents,
  startedWindows,
  toolEventId,
} from "../../../src/client/events/place-tool-events.js";
import type { LoggedEntry } from "../../../src/contract/stream/stream-entry.js";

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

  it("hands on a heartbeat's window, then the result's overlapping last window, each event once (ADR 0021)", () => {
    const cursor: ToolEventCursor = {};
    // Read while the call runs: its activity's heartbeat held events 0-3.
    const live = placeToolEvents(
      [entry(5, "start")],
      [batch({ startOffset: 5 }, "e0", "e1", "e2", "e3")],
      5,
      cursor,
    );
    expect(messages(live)).toEqual(["start", "e0", "e1", "e2", "e3"]);
    // The window moved on (events 0-2 dropped from its head); the result carried events 3-6, then the call ended.
    const stored = batch({ startOffset: 5, endOffset: 6, at: 3 }, "e3", "e4", "e5", "e6");
    const last = placeToolEvents([entry(6, "end")], [stored], 6, cursor);
    expect(messages(last)).toEqual(["e4", "e5", "e6", "end"]);
    expect(last.map((item) => item.deltaId)).toEqual([
      ...[5, 6, 7].map((n) => toolEventId("k", n)),
      undefined,
    ]);
  });

  it("places a heartbeat's window at its call's start as the answer says, and leaves one the answer does not name", () => {
    const windows = [batch({}, "a"), batch({ key: "later" }, "b")];
    expect(startedWindows(windows, { k: 4 })).toEqual([batch({ startOffset: 4 }, "a")]);
    expect(startedWindows(windows, undefined)).toEqual([]);
  });
});
