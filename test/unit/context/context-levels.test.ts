import { describe, expect, it } from "vitest";
import { createContextEngine } from "../../../src/kernel/context/context-engine.js";
import {
  DEFAULT_CONTEXT_WINDOW,
  levelForPressure,
} from "../../../src/kernel/context/edits/context-levels.js";
import type { ContextPlanner } from "../../../src/kernel/context/types.js";
import { assistant, fakePorts, fakeProvider, text, user } from "./fixtures.js";

const keepAll: ContextPlanner = { propose: () => Promise.resolve({ segments: [] }) };

/** One short goal, then an assistant reply sized so the request fills `fraction` of a 1000-token window. */
function filled(fraction: number) {
  const goal = user("goal");
  return [goal, assistant(text(Math.round(fraction * 4000) - 4))];
}

describe("levelForPressure", () => {
  it("maps >65/75/85/95% to L1–L4 and skips L3 without a planner", () => {
    expect(levelForPressure(650, 1000, true)).toBe(0);
    expect(levelForPressure(651, 1000, true)).toBe(1);
    expect(levelForPressure(751, 1000, true)).toBe(2);
    expect(levelForPressure(851, 1000, true)).toBe(3);
    expect(levelForPressure(851, 1000, false)).toBe(2);
    expect(levelForPressure(951, 1000, false)).toBe(4);
  });
});

describe("ContextEngine level selection", () => {
  it.each([
    [0.6, 0],
    [0.7, 1],
    [0.8, 2],
    [0.9, 2],
    [0.97, 4],
  ])("at %f of the window without a planner it acts at level %i", async (fraction, level) => {
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, windowTokens: 1000 });
    const prepared = await engine.prepare(filled(fraction));
    expect(prepared.status.level).toBe(level);
  });

  it("uses L3 above 85% when a planner is configured", async () => {
    const engine = createContextEngine({
      sessionId: "s",
      ports: fakePorts().ports,
      windowTokens: 1000,
      planner: keepAll,
    });
    const prepared = await engine.prepare(filled(0.9));
    expect(prepared.status).toMatchObject({ level: 3, plannerUsed: true, plannerFallback: false });
  });

  it("takes the window from the provider, else 32 000", async () => {
    const small = createContextEngine({
      sessionId: "s",
      ports: fakePorts().ports,
      provider: fakeProvider({ contextWindow: 1000 }),
    });
    expect((await small.prepare(filled(0.7))).status.level).toBe(1);
    const fallback = createContextEngine({ sessionId: "s", ports: fakePorts().ports });
    expect(DEFAULT_CONTEXT_WINDOW).toBe(32_000);
    expect((await fallback.prepare(filled(0.7))).status.level).toBe(0);
  });

  it("counts with the provider's countTokens and falls back to chars/4 when it throws", async () => {
    const counting = createContextEngine({
      sessionId: "s",
      ports: fakePorts().ports,
      windowTokens: 1000,
      provider: fakeProvider({ countTokens: () => Promise.resolve(700) }),
    });
    const small = [user("hello")];
    expect((await counting.prepare(small)).status).toMatchObject({ level: 1, beforeTokens: 700 });
    const broken = createContextEngine({
      sessionId: "s",
      ports: fakePorts().ports,
      windowTokens: 1000,
      provider: fakeProvider({ countTokens: () => Promise.reject(new Error("down")) }),
    });
    expect((await broken.prepare(small)).status).toMatchObject({ level: 0, beforeTokens: 2 });
  });

  it("counts the system prompt and tools of the request", async () => {
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, windowTokens: 1000 });
    const prepared = await engine.prepare([user("hi")], { system: text(2800) });
    expect(prepared.status.level).toBe(1);
  });
});
