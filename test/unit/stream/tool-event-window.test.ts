import { describe, expect, it } from "vitest";
import type { WireEvent } from "../../../src/contract/stream/wire-event.js";
import { ToolEventWindow, isToolEventSnapshot } from "../../../src/stream/tool-event-window.js";

const origin = { key: "k", runId: "r", attempt: 2 };
const note = (n: number, pad = ""): WireEvent => ({
  type: "diagnostic",
  level: "info",
  code: "step",
  message: `${n}${pad}`,
});
const size = (event: WireEvent) => new TextEncoder().encode(JSON.stringify(event)).length;

describe("ToolEventWindow", () => {
  it("holds every event while they fit, from the attempt's first", () => {
    const window = new ToolEventWindow(origin, 1_000);
    expect(window.empty).toBe(true);
    for (let n = 0; n < 3; n++) window.add(note(n));
    expect(window.empty).toBe(false);
    expect(window.batch()).toEqual({ ...origin, at: 0, events: [0, 1, 2].map((n) => note(n)) });
  });

  it("drops the oldest events past its bytes, moving `at` by as many, and stays within them", () => {
    const limit = 3 * size(note(0)) + 1;
    const window = new ToolEventWindow(origin, limit);
    for (let n = 0; n < 10; n++) window.add(note(n));
    const batch = window.batch();
    expect(batch).toMatchObject({ at: 7, events: [7, 8, 9].map((n) => note(n)) });
    expect(batch.events.reduce((sum, event) => sum + size(event), 0)).toBeLessThanOrEqual(limit);
  });

  it("keeps the newest event whole even when it alone passes the window", () => {
    const window = new ToolEventWindow(origin, 100);
    window.add(note(0));
    window.add(note(1, "x".repeat(500)));
    expect(window.batch()).toMatchObject({ at: 1, events: [note(1, "x".repeat(500))] });
  });

  it("gives a copy: later events do not change a batch already handed out", () => {
    const window = new ToolEventWindow(origin, 1_000);
    window.add(note(0));
    const first = window.batch();
    window.add(note(1));
    expect(first.events).toEqual([note(0)]);
  });

  it("tells its heartbeat details from other details", () => {
    const window = new ToolEventWindow(origin);
    window.add(note(0));
    expect(isToolEventSnapshot({ toolEvents: window.batch(), details: { step: 3 } })).toBe(true);
    expect(isToolEventSnapshot({ step: 3 })).toBe(false);
    expect(isToolEventSnapshot({ toolEvents: { key: "k" } })).toBe(false);
    expect(isToolEventSnapshot(undefined)).toBe(false);
  });
});
