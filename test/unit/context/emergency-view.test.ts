import { describe, expect, it } from "vitest";
import { createContextEngine } from "../../../src/kernel/context/context-engine.js";
import { EMERGENCY_TAIL_CHARS } from "../../../src/kernel/context/edits/context-levels.js";
import { PINNED_FACTS_HEADER } from "../../../src/kernel/context/edits/pinned-facts.js";
import { shrinkText } from "../../../src/kernel/context/edits/shrink-text.js";
import { assistant, call, fakePorts, result, text, user } from "./fixtures.js";

describe("L5 emergency view", () => {
  it('compact("overflow") keeps the facts and the last two messages at 512 chars, with retry: true', async () => {
    const last = text(2000, "z");
    const messages = [user("goal"), assistant(text(900, "a")), user("next step"), assistant(last)];
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, windowTokens: 100_000 });
    const prepared = await engine.compact("overflow", messages);
    expect(prepared.status).toMatchObject({ level: 5, reason: "overflow", retry: true, generation: 1 });
    expect(prepared.messages).toEqual([
      user(`${PINNED_FACTS_HEADER}\n- goal: goal`),
      user("next step"),
      assistant(shrinkText(last, EMERGENCY_TAIL_CHARS)),
    ]);
  });

  it("prepare falls to L5 only when L4 still leaves the request above the window", async () => {
    const messages = [user("goal"), assistant(text(2000, "a")), user("next"), assistant(text(4200, "b"))];
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, windowTokens: 1000 });
    const prepared = await engine.prepare(messages);
    expect(prepared.status).toMatchObject({ level: 5, reason: "emergency", retry: false });
    expect(prepared.messages).toHaveLength(3);
    const fits = [user("goal"), assistant(text(2000, "a")), user("next"), assistant(text(2400, "b"))];
    expect((await engine.prepare(fits)).status.level).toBe(4);
  });

  it("drops a tool result whose call fell outside the tail", async () => {
    const messages = [user("goal"), call("c1"), result("c1", "out"), assistant("done")];
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, windowTokens: 100_000 });
    const prepared = await engine.compact("overflow", messages);
    expect(prepared.messages).toEqual([user(`${PINNED_FACTS_HEADER}\n- goal: goal`), assistant("done")]);
  });

  it("keeps a call and its result together when both are in the tail", async () => {
    const messages = [user("goal"), assistant("plan"), call("c1"), result("c1", "out")];
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, windowTokens: 100_000 });
    const prepared = await engine.compact("overflow", messages);
    expect(prepared.messages.slice(1)).toEqual([call("c1"), result("c1", "out")]);
  });
});
