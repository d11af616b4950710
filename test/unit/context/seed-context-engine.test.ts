import { describe, expect, it } from "vitest";
import { ContextEngine, memoryCheckpointer, type Checkpointer } from "../../../src/index.js";
import type { ContextEngine as ContextEngineContract } from "../../../src/kernel/context/types.js";
import { createContextEngine } from "../../../src/kernel/context/context-engine.js";
import { assistant, fakePorts, text, user } from "./fixtures.js";

const small = [user("goal: keep it short"), assistant("hi")];

describe("ContextEngine constructed as the seed documents it", () => {
  it("is built with new and only a session id, and projects like the kernel's engine", async () => {
    const engine = new ContextEngine({ sessionId: "s" });
    expect(engine.status).toBeUndefined();
    const idle = await engine.prepare(small);
    expect(idle.messages).toBe(small);
    expect(idle.status).toMatchObject({ sessionId: "s", level: 0 });
    const compacted = await engine.compact("manual", small);
    expect(compacted.status).toMatchObject({ level: 4, generation: 1 });
    expect(engine.status).toEqual(compacted.status);
  });

  it("takes the seed's windowTokens: the same conversation is under pressure in a small window only", async () => {
    const heavy = [user("goal"), assistant(text(3_000)), user("next")];
    const tight = await new ContextEngine({ sessionId: "s", windowTokens: 1_000 }).prepare(heavy);
    const roomy = await new ContextEngine({ sessionId: "s" }).prepare(heavy);
    expect(tight.status.level).toBeGreaterThan(0);
    expect(roomy.status.level).toBe(0);
  });

  it("with a checkpointer, appends each committed view to the session's log and restores from it", async () => {
    const checkpointer: Checkpointer = memoryCheckpointer();
    const first = new ContextEngine({ sessionId: "s-1", checkpointer, ports: fakePorts().ports });
    await first.compact("manual", small);
    await first.compact("manual", small);
    // The second view is written before the next call returns.
    await first.prepare(small);
    const logged = [];
    for await (const stored of checkpointer.read("s-1")) logged.push(stored.event);
    expect(
      logged.map((event) => [event.type, event.type === "context_view" ? event.view.generation : -1]),
    ).toEqual([
      ["context_view", 1],
      ["context_view", 2],
    ]);
    const reopened = new ContextEngine({ sessionId: "s-1", checkpointer });
    expect((await reopened.compact("manual", small)).status.generation).toBe(3);
  });

  it("reports a failed append on the next call, once", async () => {
    const checkpointer = memoryCheckpointer();
    let failures = 1;
    const flaky: Checkpointer = {
      ...checkpointer,
      read: (sessionId, options) => checkpointer.read(sessionId, options),
      append: (sessionId, events, head) =>
        failures-- > 0
          ? Promise.reject(new Error("disk full"))
          : checkpointer.append(sessionId, events, head),
    };
    const engine = new ContextEngine({ sessionId: "s-2", checkpointer: flaky });
    await engine.compact("manual", small);
    await expect(engine.prepare(small)).rejects.toThrow("disk full");
    await expect(engine.prepare(small)).resolves.toMatchObject({ status: { level: 0 } });
  });

  it("stays structurally the ContextEngine interface, both ways", () => {
    const fromClass: ContextEngineContract = new ContextEngine({ sessionId: "s" });
    const fromKernel: ContextEngine = createContextEngine({ sessionId: "s", ports: fakePorts().ports });
    expect(typeof fromClass.prepare).toBe("function");
    expect(typeof fromKernel.compact).toBe("function");
  });
});
