import { describe, expect, it } from "vitest";
import { keyedSerialQueue } from "../../../src/kernel/checkpoint/keyed-serial-queue.js";

/** A promise resolved from outside, so tests decide the order things finish in. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("keyedSerialQueue", () => {
  it("runs tasks on one key one at a time, in submission order", async () => {
    const queue = keyedSerialQueue();
    const log: string[] = [];
    const first = gate();
    const a = queue.run("k", async () => {
      log.push("a start");
      await first.promise;
      log.push("a end");
    });
    const b = queue.run("k", () => {
      log.push("b");
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(["a start"]);
    first.open();
    await Promise.all([a, b]);
    expect(log).toEqual(["a start", "a end", "b"]);
  });

  it("does not hold one key's tasks behind another key's", async () => {
    const queue = keyedSerialQueue();
    const blocked = gate();
    const slow = queue.run("a", () => blocked.promise);
    await expect(queue.run("b", () => "fast")).resolves.toBe("fast");
    blocked.open();
    await slow;
  });

  it("passes a failure to its caller and keeps running the tasks after it", async () => {
    const queue = keyedSerialQueue();
    const failing = queue.run("k", () => {
      throw new Error("boom");
    });
    const next = queue.run("k", () => 42);
    await expect(failing).rejects.toThrow("boom");
    await expect(next).resolves.toBe(42);
  });
});
