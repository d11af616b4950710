import { describe, expect, it } from "vitest";
import { storeEvents } from "../../../src/kernel/checkpoint/store-events.js";
import { userMessage } from "../../../src/kernel/vocabulary/messages.js";
import type { SessionEvent } from "../../../src/kernel/vocabulary/session-events.js";

const events: SessionEvent[] = [
  { type: "user", message: userMessage("a") },
  { type: "user", message: userMessage("b") },
];
const ts = "2025-01-02T03:04:05.678Z";

describe("storeEvents", () => {
  it("numbers the first events of a session from 1 with a null first parent", () => {
    expect(storeEvents("s1", 0, events, ts)).toEqual([
      { seq: 1, sessionId: "s1", parentSeq: null, ts, event: events[0] },
      { seq: 2, sessionId: "s1", parentSeq: 1, ts, event: events[1] },
    ]);
  });

  it("continues after fromSeq with parentSeq = seq - 1", () => {
    const stored = storeEvents("s1", 7, events, ts);
    expect(stored.map((entry) => [entry.seq, entry.parentSeq])).toEqual([
      [8, 7],
      [9, 8],
    ]);
  });

  it("returns nothing for no events", () => {
    expect(storeEvents("s1", 3, [], ts)).toEqual([]);
  });
});
