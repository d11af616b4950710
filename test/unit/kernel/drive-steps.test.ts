import { describe, expect, it } from "vitest";
import { driveSteps, wait, type Steps } from "../../../src/kernel/drive-steps.js";
import { Later } from "../../../src/kernel/later.js";

describe("driveSteps", () => {
  it("runs the steps as an async function would: values at once, promises and Laters waited for", async () => {
    function* steps(): Steps<number[]> {
      const now = yield* wait(1);
      const promised = yield* wait(Promise.resolve(2));
      const later = yield* wait(new Later(Promise.resolve(2), (value: number) => value + 1));
      return [now, promised, later];
    }
    expect(await driveSteps(steps())).toEqual([1, 2, 3]);
  });

  it("throws a rejection into the steps, where a try/catch takes it", async () => {
    function* steps(): Steps<string> {
      try {
        yield* wait(new Later(Promise.reject(new Error("activity failed")), (value: string) => value));
        return "not reached";
      } catch (error) {
        return `caught ${(error as Error).message}`;
      }
    }
    expect(await driveSteps(steps())).toBe("caught activity failed");
  });

  it("rejects with what the steps throw, before or after a wait", async () => {
    function* early(): Steps<never> {
      yield* wait(0);
      throw new Error("at once");
    }
    function* late(): Steps<never> {
      yield* wait(Promise.resolve());
      throw new Error("after a wait");
    }
    await expect(driveSteps(early())).rejects.toThrow("at once");
    await expect(driveSteps(late())).rejects.toThrow("after a wait");
  });

  it("goes through a hundred thousand synchronous steps without growing the stack", async () => {
    function* steps(): Steps<number> {
      let sum = 0;
      for (let index = 0; index < 100_000; index++) sum += yield* wait(1);
      for (let index = 0; index < 1_000; index++) sum += (yield 1) as number;
      return sum;
    }
    expect(await driveSteps(steps())).toBe(101_000);
  });
});
