import { createHook } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import { directOutlet } from "../../../src/kernel/coroutine/event-outlet.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import type { KernelConfig } from "../../../src/kernel/loop/kernel-config.js";
import type { Middleware } from "../../../src/kernel/middleware/middleware.js";
import { runKernelInto } from "../../../src/kernel/loop/run-kernel.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { nodePorts } from "../../../src/node-ports.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";

const noop = defineTool({ name: "noop", description: "", schema: z.object({}), execute: () => "ok" });

function config(use: Middleware[]): KernelConfig {
  const model = fakeProvider([toolCallTurn([{ id: "a", name: "noop", input: {} }]), textTurn("done")]);
  return { model, codec: nativeCodec(), tools: [noop], use, ports: nodePorts };
}

/** Promises created while `body` runs (every one, the runtime's included): the fewest of three runs. */
async function promisesMadeBy(body: () => Promise<unknown>): Promise<number> {
  const counts: number[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    let made = 0;
    const hook = createHook({ init: (_id, type) => void (type === "PROMISE" && made++) }).enable();
    try {
      await body();
    } finally {
      hook.disable();
    }
    counts.push(made);
  }
  return Math.min(...counts);
}

describe("the interpreter performs the loop's steps", () => {
  it("makes no promise for synchronous work: ten synchronous hooks cost what none do", async () => {
    const run = (use: Middleware[]) => () =>
      runKernelInto(
        directOutlet(() => undefined),
        config(use),
        "go",
        { sessionId: "s" },
      );
    const hooks: Middleware[] = Array.from({ length: 10 }, (_, index) => ({
      name: `sync-${index}`,
      beforeAgent: () => undefined,
      beforeModel: () => undefined,
      afterTurn: () => undefined,
      afterAgent: () => undefined,
    }));
    await run([])(); // warm: module loading makes promises of its own
    expect(await promisesMadeBy(run(hooks))).toBe(await promisesMadeBy(run([])));
  });

  it("waits for a hook's promise before it goes on", async () => {
    const seen: string[] = [];
    const slow: Middleware = {
      name: "slow",
      beforeModel: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push("beforeModel done");
      },
    };
    const take = (event: AgentEvent) => void seen.push(event.type);
    await runKernelInto(directOutlet(take), config([slow]), "go", { sessionId: "s" });
    expect(seen.slice(0, 3)).toEqual(["turn_start", "beforeModel done", "model_call_start"]);
  });

  it("rejects with a failure the run cannot report: a consumer that throws at every event", async () => {
    const broken = directOutlet(() => {
      throw new Error("consumer broke");
    });
    await expect(runKernelInto(broken, config([]), "go", { sessionId: "s" })).rejects.toThrow(
      "consumer broke",
    );
  });

  it("turns a hook's throw into an error event and done(error)", async () => {
    const events: AgentEvent[] = [];
    const failing: Middleware = {
      name: "failing",
      afterTurn: () => {
        throw new Error("hook broke");
      },
    };
    const result = await runKernelInto(
      directOutlet((event) => void events.push(event)),
      config([failing]),
      "go",
      {
        sessionId: "s",
      },
    );
    expect(result.stopReason).toBe("error");
    expect(events.slice(-2).map((event) => event.type)).toEqual(["error", "done"]);
  });
});
