import { describe, expect, it } from "vitest";
import type { StreamEntry } from "../../../src/contract/stream/stream-entry.js";
import { EventLog } from "../../../src/workflows/stream/event-log.js";

/** An entry whose JSON is about `chars` long. */
const entry = (chars: number): StreamEntry => ({
  runId: "r",
  event: { type: "diagnostic", level: "info", code: "c", message: "x".repeat(chars) },
});
const size = (chars: number) => JSON.stringify(entry(chars)).length;

function logOf(chars: number[], countedAtMost?: number): EventLog {
  const log = new EventLog(undefined, countedAtMost);
  for (const length of chars) log.append(entry(length));
  return log;
}

describe("EventLog", () => {
  it("keeps entries whole, however large, and reads at least one per page", () => {
    const log = logOf([10, 500_000]);
    const page = log.read(1, 1_000);
    expect(page.items.map((item) => item.offset)).toEqual([1]);
    expect(page.items[0]!.entry).toEqual(entry(500_000));
  });

  it("trims by size with each entry counted at most `countedAtMost`: a large entry does not push the rest out", () => {
    const small = size(100);
    const log = logOf([100, 100, 100, 500_000], 1_000);
    log.trimTo(3 * small + 1_000);
    expect(log.read(0, Infinity).items.map((item) => item.offset)).toEqual([0, 1, 2, 3]);
    log.trimTo(2 * small + 1_000);
    expect(log.read(0, Infinity).items.map((item) => item.offset)).toEqual([1, 2, 3]);
    // Without the cap, the large entry alone is over the budget and takes everything with it.
    const uncapped = logOf([100, 100, 100, 500_000]);
    uncapped.trimTo(3 * small + 1_000);
    expect(uncapped.read(0, Infinity)).toMatchObject({ base: 4, end: 4, items: [] });
  });

  it("carries the newest entries whose whole size fits, with the offsets they had", () => {
    const log = logOf([100, 100, 500_000, 100, 100]);
    expect(log.state(2 * size(100))).toEqual({ base: 3, entries: [entry(100), entry(100)] });
    expect(log.state(Infinity).entries).toHaveLength(5);
    const next = new EventLog(log.state(2 * size(100)));
    expect(next.end).toBe(5);
  });
});
