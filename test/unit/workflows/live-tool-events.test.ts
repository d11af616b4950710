import { describe, expect, it } from "vitest";
import type { WireEvent } from "../../../src/contract/stream/wire-event.js";
import { LiveToolEvents } from "../../../src/workflows/stream/live-tool-events.js";

const note = (n: number): WireEvent => ({ type: "diagnostic", level: "info", code: "step", message: `${n}` });
const batch = (attempt: number, at: number, ...ns: number[]) => ({
  key: "k",
  runId: "r",
  attempt,
  at,
  events: ns.map(note),
});

describe("LiveToolEvents", () => {
  it("answers the events of a call's last window beyond the reader's cursor", () => {
    const live = new LiveToolEvents();
    live.store(batch(1, 3, 3, 4, 5));
    expect(live.read({})[0]).toMatchObject({ at: 3, events: [3, 4, 5].map(note) });
    expect(live.read({ k: 4 })[0]).toMatchObject({ at: 4, events: [note(4), note(5)] });
    expect(live.read({ k: 6 })).toEqual([]);
  });

  it("answers with the offsets of the call's start and end in the log", () => {
    const live = new LiveToolEvents();
    live.noteBound("k", "start", 4);
    live.store(batch(1, 0, 0));
    live.noteBound("k", "end", 9);
    expect(live.read({})[0]).toMatchObject({ startOffset: 4, endOffset: 9 });
  });

  it("says where the calls in flight began, and forgets a call once it ended", () => {
    const live = new LiveToolEvents();
    live.noteBound("a", "start", 2);
    live.noteBound("b", "start", 3);
    live.noteBound("a", "end", 7);
    expect(live.starts()).toEqual({ b: 3 });
  });

  it("keeps the windows of the last 16 calls", () => {
    const live = new LiveToolEvents();
    for (let n = 0; n < 17; n++) live.store({ ...batch(1, 0, n), key: `k${n}` });
    const keys = live.read({}).map((kept) => kept.key);
    expect(keys).toHaveLength(16);
    expect(keys[0]).toBe("k1");
  });
});
