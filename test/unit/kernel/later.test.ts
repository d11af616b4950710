import { promiseHooks } from "node:v8";
import { describe, expect, it } from "vitest";
import { Later } from "../../../src/kernel/coroutine/later.js";
import { andThen, attempt } from "../../../src/kernel/coroutine/maybe-async.js";

/** A promise settled by hand, so a test decides when the "activity" ends. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

/** How many promises `act` makes, counted by V8's promise hook as the Temporal SDK's is. */
async function promisesMadeBy(act: () => Promise<unknown>): Promise<number> {
  let made = 0;
  const stop = promiseHooks.onInit(() => made++);
  try {
    await act();
  } finally {
    stop();
  }
  return made;
}

/** Settles a Later the way the run's driver does, as a plain promise for the test to await. */
function settled<T>(later: Later<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => later.settle(resolve, reject));
}

describe("Later", () => {
  it("folds the steps after a promise into one then: andThen and attempt make no promise of their own", async () => {
    const source = deferred<number>();
    const steps: string[] = [];
    const chained = attempt(
      () =>
        andThen(
          new Later(source.promise, (value: number) => value + 1),
          (value) => (steps.push(`andThen ${value}`), value * 10),
        ),
      (value) => (steps.push(`next ${value}`), `result ${value}`),
      () => "failed",
    );
    expect(chained).toBeInstanceOf(Later);
    expect(steps).toEqual([]);
    source.resolve(1);
    expect(await settled(chained as Later<string>)).toBe("result 20");
    expect(steps).toEqual(["andThen 2", "next 20"]);
  });

  it("costs one promise where then-chaining cost one a step", async () => {
    const viaLater = async () => {
      const source = deferred<number>();
      const chain = andThen(
        andThen(new Later(source.promise, (value: number) => value), (value) => value + 1),
        (value) => value + 1,
      );
      const result = new Promise((resolve, reject) => (chain as Later<number>).settle(resolve, reject));
      source.resolve(1);
      return result;
    };
    const viaThen = async () => {
      const source = deferred<number>();
      const chain = source.promise
        .then((value) => value)
        .then((value) => value + 1)
        .then((value) => value + 1);
      const result = new Promise((resolve, reject) => chain.then(resolve, reject));
      source.resolve(1);
      return result;
    };
    expect(await viaLater()).toBe(3);
    expect(await viaThen()).toBe(3);
    // The same scaffolding in both: three thens and the consumer's make four promises, the Later's settle one.
    expect((await promisesMadeBy(viaThen)) - (await promisesMadeBy(viaLater))).toBe(3);
  });

  it("sends the source's failure to fail, and what next throws past it", async () => {
    const failing = deferred<number>();
    const recovered = attempt(
      () => new Later(failing.promise, (value: number) => value),
      (value) => `value ${value}`,
      (error) => `recovered from ${(error as Error).message}`,
    );
    failing.reject(new Error("activity failed"));
    expect(await settled(recovered as Later<string>)).toBe("recovered from activity failed");

    const working = deferred<number>();
    const broken = attempt(
      () => new Later(working.promise, (value: number) => value),
      () => {
        throw new Error("next broke");
      },
      () => "must not be called",
    );
    working.resolve(1);
    await expect(settled(broken as Later<string>)).rejects.toThrow("next broke");
  });

  it("sends what its own mapping throws to fail, as a then's rejected step would", async () => {
    const source = deferred<number>();
    const mapped = attempt(
      () =>
        new Later(source.promise, () => {
          throw new Error("mapping broke");
        }),
      () => "must not be called",
      (error) => `failed: ${(error as Error).message}`,
    );
    source.resolve(1);
    expect(await settled(mapped as Later<string>)).toBe("failed: mapping broke");
  });

  it("waits for a step that returned a promise or another Later before handing the value on", async () => {
    const first = deferred<number>();
    const second = deferred<number>();
    const chain = andThen(
      new Later(first.promise, (value: number) => value),
      (value) => new Later(second.promise, (other: number) => value + other),
    );
    const result = settled(chain as Later<number>);
    first.resolve(1);
    await Promise.resolve();
    second.resolve(2);
    expect(await result).toBe(3);
  });

  it("is a Promise to everyone else: then, catch and finally run its mapping once", async () => {
    let mapped = 0;
    const later = new Later(Promise.resolve(2), (value: number) => (mapped++, value * 2));
    expect(await later).toBe(4);
    expect(await later.then((value) => value + 1)).toBe(5);
    expect(await later.finally(() => undefined)).toBe(4);
    expect(mapped).toBe(1);
    const failing = new Later(Promise.reject(new Error("no")), (value: number) => value);
    expect(await failing.catch((error) => (error as Error).message)).toBe("no");
  });

  it("refuses to be taken twice: a second fold would run its mapping twice", () => {
    const later = new Later(Promise.resolve(1), (value: number) => value);
    later.fold((value) => value);
    expect(() => later.fold((value) => value)).toThrow("a Later was taken twice");
    expect(() =>
      later.settle(
        () => undefined,
        () => undefined,
      ),
    ).toThrow("a Later was taken twice");
  });
});
