import { describe, expect, it } from "vitest";
import { RingBuffer } from "../../../src/kernel/background/ring-buffer.js";

describe("RingBuffer", () => {
  it("keeps everything below its capacity and reports no drop", () => {
    const ring = new RingBuffer(10);
    ring.write("abc");
    ring.write("def");
    expect(ring.toString()).toBe("abcdef");
    expect(ring.readFrom(0)).toEqual({ text: "abcdef", dropped: false });
    expect(ring.readFrom(4)).toEqual({ text: "ef", dropped: false });
    expect(ring.hasDropped).toBe(false);
  });

  it("keeps the last capacity characters across chunk boundaries and knows it dropped", () => {
    const ring = new RingBuffer(5);
    ring.write("abc");
    ring.write("defg");
    ring.write("hi");
    expect(ring.toString()).toBe("efghi");
    expect([ring.written, ring.start, ring.hasDropped]).toEqual([9, 4, true]);
    expect(ring.readFrom(2)).toEqual({ text: "efghi", dropped: true });
    expect(ring.readFrom(6)).toEqual({ text: "ghi", dropped: false });
    expect(ring.readFrom(9)).toEqual({ text: "", dropped: false });
  });

  it("keeps only the tail of a chunk longer than the capacity", () => {
    const ring = new RingBuffer(3);
    ring.write("abcdefg");
    expect(ring.toString()).toBe("efg");
    expect(ring.readFrom(0)).toEqual({ text: "efg", dropped: true });
  });

  it("rejects a negative capacity", () => {
    expect(() => new RingBuffer(-1)).toThrow(RangeError);
  });
});
