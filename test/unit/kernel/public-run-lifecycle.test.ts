import { describe, expect, it } from "vitest";
import type { AgentContext, Middleware, RunEnd } from "../../../src/kernel/middleware/middleware.js";
import { runLifecycle } from "../../../src/kernel/middleware/run-lifecycle.js";
import { NEVER_ABORTED } from "../../../src/kernel/vocabulary/ports.js";
import { nodePorts } from "../../../src/node-ports.js";

const ctx: AgentContext = {
  sessionId: "s",
  messages: [],
  turn: 0,
  signal: NEVER_ABORTED,
  emit: () => undefined,
  state: new Map(),
  ports: nodePorts,
  effect: () => Promise.reject(new Error("this test gives no effects")),
};

describe("runLifecycle (the seed's helper)", () => {
  it("runs one hook of every layer in array order, awaiting each before the next", async () => {
    const seen: string[] = [];
    const layer = (name: string, delay: number): Middleware => ({
      name,
      beforeModel: async () => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        seen.push(name);
      },
    });
    const done = runLifecycle([layer("outer", 5), { name: "none" }, layer("inner", 0)], "beforeModel", ctx);
    expect(done).toBeInstanceOf(Promise);
    await done;
    expect(seen).toEqual(["outer", "inner"]);
  });

  it("returns a promise even when every hook is synchronous", async () => {
    const seen: string[] = [];
    const done = runLifecycle([{ name: "a", beforeAgent: () => void seen.push("a") }], "beforeAgent", ctx);
    expect(done).toBeInstanceOf(Promise);
    await done;
    expect(seen).toEqual(["a"]);
  });

  it("tells afterAgent hooks how the run ended: stop unless given", async () => {
    const ends: RunEnd[] = [];
    const layer: Middleware = { name: "a", afterAgent: (_ctx, end) => void ends.push(end) };
    await runLifecycle([layer], "afterAgent", ctx);
    await runLifecycle([layer], "afterAgent", ctx, { reason: "aborted" });
    expect(ends).toEqual([{ reason: "stop" }, { reason: "aborted" }]);
  });

  it("rejects with the error of a throwing hook and runs no later layer", async () => {
    const seen: string[] = [];
    const layers: Middleware[] = [
      {
        name: "a",
        afterTurn: () => {
          throw new Error("boom");
        },
      },
      { name: "b", afterTurn: () => void seen.push("b") },
    ];
    await expect(runLifecycle(layers, "afterTurn", ctx)).rejects.toThrow("boom");
    expect(seen).toEqual([]);
  });
});
