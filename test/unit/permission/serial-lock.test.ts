import { describe, expect, it } from "vitest";
import { serialLock } from "../../../src/kernel/permission/serial-lock.js";
import { flush } from "./tool-call-context.js";

describe("serialLock", () => {
  it("hands slots out in order, each after the previous release", async () => {
    const lock = serialLock();
    const order: string[] = [];
    const a = lock.acquire();
    const b = lock.acquire();
    void b.ready.then(() => order.push("b"));
    await a.ready;
    order.push("a");
    await flush();
    expect(order).toEqual(["a"]);
    a.release();
    await flush();
    expect(order).toEqual(["a", "b"]);
  });

  it("an early release by a waiter does not let later slots overtake the holder", async () => {
    const lock = serialLock();
    const holder = lock.acquire();
    const quitter = lock.acquire();
    const later = lock.acquire();
    let laterReady = false;
    void later.ready.then(() => (laterReady = true));
    quitter.release();
    await flush();
    expect(laterReady).toBe(false);
    holder.release();
    await flush();
    expect(laterReady).toBe(true);
  });
});
