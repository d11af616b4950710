import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import type { RunSnapshot } from "../../../src/kernel/vocabulary/run-snapshot.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { collect } from "../../support/collect.js";
import { toolLoopModel } from "../../support/tool-loop-model.js";

const count = defineTool({
  name: "count",
  description: "counts",
  schema: z.object({ n: z.number() }),
  execute: ({ n }) => `counted ${n}`,
});

/** Five tool turns, then an answer; each turn decided by how many results the request holds. */
const script = () =>
  toolLoopModel({ tool: "count", calls: 5, answer: (n) => `done after ${n}`, idPrefix: "c" });

const timeless = (events: AgentEvent[]) =>
  events.map((event) => ("durationMs" in event ? { ...event, durationMs: 0 } : event));

describe("suspending a run at a turn boundary and resuming it elsewhere", () => {
  it("the events of the two halves are the events of one uninterrupted run, and the result is the same", async () => {
    const whole = await collect(
      createAgent({ model: script(), codec: nativeCodec(), tools: [count] }).run("go"),
    );

    let snapshot: RunSnapshot | undefined;
    let asked = 0;
    const first = await collect(
      createAgent({ model: script(), codec: nativeCodec(), tools: [count] }).run("go", {
        suspend: { requested: () => ++asked >= 3, suspend: (paused) => void (snapshot = paused) },
      }),
    );
    expect(snapshot).toBeDefined();
    expect(snapshot!.turn).toBe(3);
    expect(snapshot!.budgetUsed).toBe(3);
    expect(first.events.some((event) => event.type === "done")).toBe(false);
    // Round trip through JSON, as continue-as-new does.
    const carried = JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;
    const second = await collect(
      createAgent({ model: script(), codec: nativeCodec(), tools: [count] }).run("go", { resume: carried }),
    );
    expect(timeless([...first.events, ...second.events])).toEqual(timeless(whole.events));
    expect(second.result.text).toBe("done after 5");
    expect(second.result.messages).toEqual(whole.result.messages);
  });

  it("carries the ContextEngine's state: a resumed run goes on with its generation, as one uninterrupted run", async () => {
    // A small window: the engine acts (L1 and up) on most turns, and each act commits the next generation.
    const agent = () =>
      createAgent({ model: script(), codec: nativeCodec(), tools: [count], context: { windowTokens: 60 } });
    const generations = (events: AgentEvent[]) =>
      events.flatMap((event) => (event.type === "context_status" ? [event.generation] : []));
    const whole = await collect(agent().run("go", { sessionId: "s" }));
    expect(generations(whole.events).length).toBeGreaterThan(3);

    let snapshot: RunSnapshot | undefined;
    let asked = 0;
    const first = await collect(
      agent().run("go", {
        sessionId: "s",
        suspend: { requested: () => ++asked >= 3, suspend: (paused) => void (snapshot = paused) },
      }),
    );
    expect(snapshot?.contextState?.generation).toBeGreaterThan(0);
    const carried = JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;
    const second = await collect(agent().run("go", { sessionId: "s", resume: carried }));
    expect(generations([...first.events, ...second.events])).toEqual(generations(whole.events));
    expect(timeless([...first.events, ...second.events])).toEqual(timeless(whole.events));
  });

  it("is never asked before the first turn of an execution, so every execution makes progress", async () => {
    let asked = 0;
    const { events } = await collect(
      createAgent({ model: script(), codec: nativeCodec(), tools: [count] }).run("go", {
        suspend: { requested: () => (asked++, true), suspend: () => undefined },
      }),
    );
    expect(events.filter((event) => event.type === "turn_start")).toHaveLength(1);
    expect(asked).toBe(1);
  });

  it("a resumed run keeps counting turns against maxTurns", async () => {
    let snapshot: RunSnapshot | undefined;
    await collect(
      createAgent({ model: script(), codec: nativeCodec(), tools: [count], maxTurns: 4 }).run("go", {
        suspend: { requested: () => true, suspend: (paused) => void (snapshot = paused) },
      }),
    );
    const resumed = await collect(
      createAgent({ model: script(), codec: nativeCodec(), tools: [count], maxTurns: 4 }).run("go", {
        resume: snapshot!,
      }),
    );
    expect(resumed.events.filter((event) => event.type === "turn_start").map((e) => e.turn)).toEqual([
      2, 3, 4,
    ]);
    expect(resumed.result.stopReason).toBe("max_turns");
  });
});
