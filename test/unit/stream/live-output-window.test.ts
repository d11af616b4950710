import { describe, expect, it } from "vitest";
import { LiveDeltas, type DeltaCursor } from "../../../src/stream/live-deltas.js";
import {
  LiveOutputWindow,
  isLiveOutputSnapshot,
  snapshotDeltas,
} from "../../../src/stream/live-output-window.js";
import type { StreamDelta } from "../../../src/contract/stream/stream-delta.js";

// The Temporal-native transport's two ends without a server: the model activity's window (each heartbeat's details)
// and a reader's LiveDeltas fed with every snapshot it happens to see, read after its cursor.

const origin = { key: "run:1", attempt: 1 };
const piece = (kind: StreamDelta["kind"], at: number, text: string): StreamDelta => ({
  ...origin,
  kind,
  at,
  text,
});

/** A reader: stores what a describe returned and hands on what goes beyond its cursor, moving it. */
function reader() {
  const live = new LiveDeltas();
  const cursor: DeltaCursor = {};
  const shown = { text: "", reasoning: "" };
  /** Where output was skipped: the offset the reader had reached and the one the next piece began at. */
  const gaps: [number, number][] = [];
  return {
    shown,
    gaps,
    see(window: LiveOutputWindow) {
      live.store(snapshotDeltas(window.snapshot()));
      for (const delta of live.read(cursor)) {
        const seen = (cursor[delta.key] ??= {});
        const reached = seen[delta.kind] ?? 0;
        if (delta.at !== reached) gaps.push([reached, delta.at]);
        seen[delta.kind] = delta.at + delta.text.length;
        shown[delta.kind] += delta.text;
      }
    },
  };
}

describe("the live output a model activity heartbeats", () => {
  it("holds the call's output so far; a reader seeing some snapshots gets every character once, in order", () => {
    const window = new LiveOutputWindow(origin);
    const follower = reader();
    const words = Array.from({ length: 40 }, (_, index) => `word${index} `);
    let at = 0;
    window.add([piece("reasoning", 0, "thinking first. ")]);
    for (const [index, word] of words.entries()) {
      window.add([piece("text", at, word)]);
      at += word.length;
      // The reader sees every third heartbeat only (the SDK throttles them, the reader polls at its own pace).
      if (index % 3 === 0) follower.see(window);
    }
    follower.see(window);
    expect(follower.shown).toEqual({ text: words.join(""), reasoning: "thinking first. " });
    expect(follower.gaps).toEqual([]);
    expect(isLiveOutputSnapshot(window.snapshot())).toBe(true);
  });

  it("keeps only the tail within its byte budget, moving `at` forward; reasoning goes first", () => {
    const window = new LiveOutputWindow(origin, 100);
    window.add([piece("reasoning", 0, "r".repeat(60)), piece("text", 0, "a".repeat(30))]);
    expect(window.snapshot().liveOutput.reasoning).toEqual({ at: 0, text: "r".repeat(60) });
    window.add([piece("text", 30, "b".repeat(30))]);
    const { text, reasoning } = window.snapshot().liveOutput;
    expect(reasoning).toEqual({ at: 20, text: "r".repeat(40) });
    expect(text).toEqual({ at: 0, text: "a".repeat(30) + "b".repeat(30) });
    window.add([piece("text", 60, "c".repeat(80))]);
    const later = window.snapshot().liveOutput;
    expect(later.reasoning.text).toBe("");
    expect(later.text.at + later.text.text.length).toBe(140);
    expect(later.text.text).toBe("b".repeat(20) + "c".repeat(80));
  });

  it("counts bytes, not characters, and never splits a surrogate pair", () => {
    const window = new LiveOutputWindow(origin, 12);
    // Each emoji is two UTF-16 units and four UTF-8 bytes.
    window.add([piece("text", 0, "😀😀😀😀")]);
    const { text } = window.snapshot().liveOutput;
    expect(new TextEncoder().encode(text.text).length).toBeLessThanOrEqual(12);
    expect(text.text).toMatch(/^(😀)+$/u);
    expect(text.at + text.text.length).toBe(8);
  });

  it("a reader that falls behind the window goes on at the window's start: what it missed is the final message's", () => {
    const window = new LiveOutputWindow(origin, 10);
    const follower = reader();
    window.add([piece("text", 0, "0123456789")]);
    follower.see(window);
    window.add([piece("text", 10, "abcdefghijklmnop")]);
    follower.see(window);
    expect(follower.shown.text).toBe("0123456789ghijklmnop");
    expect(follower.gaps).toEqual([[10, 16]]);
  });

  it("a retried attempt replaces the earlier one; the reader's cursor keeps it from showing text twice", () => {
    const first = new LiveOutputWindow(origin);
    const follower = reader();
    first.add([piece("text", 0, "Hello wor")]);
    follower.see(first);
    const retry = new LiveOutputWindow({ ...origin, attempt: 2 });
    retry.add([{ ...origin, attempt: 2, kind: "text", at: 0, text: "Hello world!" }]);
    follower.see(retry);
    // An earlier attempt's snapshot seen late changes nothing.
    follower.see(first);
    expect(follower.shown.text).toBe("Hello world!");
    expect(follower.gaps).toEqual([]);
  });

  it("tells its details from other heartbeat details", () => {
    expect(isLiveOutputSnapshot(undefined)).toBe(false);
    expect(isLiveOutputSnapshot({ progress: 3 })).toBe(false);
    expect(isLiveOutputSnapshot({ liveOutput: { key: "k", attempt: 1, text: { at: 0 } } })).toBe(false);
  });
});
