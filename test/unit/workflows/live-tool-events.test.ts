import { describe, expect, it } from "vitest";
import type { WireEvent } from "../../../src/common/wire-event.js";
import { LiveToolEvents } from "../../../src/workflows/live-tool-events.js";

const note = (n: number): WireEvent => ({ type: "diagnostic", level: "info", code: "step", message: `${n}` });
const batch = (attempt: number, at: number, ...ns: number[]) => ({
  key: "k",
  runId: "r",
  attempt,
  at,
  events: ns.map(note),
});

describe("LiveToolEvents", () => {
  it("stores a call's events once each in order, however often a batch is sent", () => {
    const live = new LiveToolEvents();
    live.store(batch(1, 0, 0, 1));
    live.store(batch(1, 0, 0, 1, 2));
    live.store(batch(1, 3, 3));
    expect(live.read({})[0]!.events).toEqual([0, 1, 2, 3].map(note));
    expect(live.read({ k: 2 })[0]).toMatchObject({ at: 2, events: [note(2), note(3)] });
  });

  it("lets a later attempt replace an earlier one's events and ignores the stale attempt", () => {
    const live = new LiveToolEvents();
    live.store(batch(1, 0, 0, 1));
    live.store(batch(2, 0, 10, 11, 12));
    live.store(batch(1, 2, 99));
    expect(live.read({ k: 2 })[0]).toMatchObject({ attempt: 2, at: 2, events: [note(12)] });
  });

  it("answers with the offsets of the call's start and end in the log", () => {
    const live = new LiveToolEvents();
    live.noteBound("k", "start", 4);
    live.store(batch(1, 0, 0));
    live.noteBound("k", "end", 9);
    expect(live.read({})[0]).toMatchObject({ startOffset: 4, endOffset: 9 });
  });
});
