import { describe, expect, it } from "vitest";
import { UpdateLanes } from "../../../src/runtime/update-lanes.js";

/** A call that stays running until `finish` is called; `started` says whether it began. */
function gate<T>(value: T) {
  let finish: () => void = () => undefined;
  const state = { started: false };
  const call = () => {
    state.started = true;
    return new Promise<T>((resolve) => (finish = () => resolve(value)));
  };
  return { call, state, finish: () => finish() };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("UpdateLanes", () => {
  it("runs one call at a time per key, in the order the calls were made", async () => {
    const lanes = new UpdateLanes();
    const order: number[] = [];
    const calls = [0, 1, 2, 3, 4].map((n) =>
      lanes.run("s1", async () => {
        order.push(n);
        await tick();
        order.push(n);
        return n;
      }),
    );
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4]);
    expect(order).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    expect(lanes.size).toBe(0);
  });

  it("lets other keys run meanwhile", async () => {
    const lanes = new UpdateLanes();
    const first = gate("a");
    const other = gate("b");
    const a = lanes.run("s1", first.call);
    const b = lanes.run("s2", other.call);
    expect(other.state.started).toBe(true);
    other.finish();
    first.finish();
    expect(await Promise.all([a, b])).toEqual(["a", "b"]);
  });

  it("moves on after a call that fails, and passes its error through", async () => {
    const lanes = new UpdateLanes();
    const failed = lanes.run("s1", async () => Promise.reject(new Error("refused")));
    const next = lanes.run("s1", async () => "accepted");
    await expect(failed).rejects.toThrow("refused");
    expect(await next).toBe("accepted");
    expect(lanes.size).toBe(0);
  });

  it("holds a later call until the earlier one ends", async () => {
    const lanes = new UpdateLanes();
    const first = gate(1);
    const second = gate(2);
    const a = lanes.run("s1", first.call);
    const b = lanes.run("s1", second.call);
    await tick();
    expect(second.state.started).toBe(false);
    first.finish();
    await a;
    await tick();
    expect(second.state.started).toBe(true);
    second.finish();
    expect(await b).toBe(2);
  });
});
