import { describe, expect, it } from "vitest";
import { ContextEngine, createContextEngine } from "../../../src/context-engine.js";
import { userMessage } from "../../../src/kernel/vocabulary/messages.js";

describe("createContextEngine (the seed's factory)", () => {
  it("makes the same engine as `new ContextEngine(options)`", async () => {
    const engine = createContextEngine({ sessionId: "s", windowTokens: 100_000 });
    expect(engine).toBeInstanceOf(ContextEngine);
    const prepared = await engine.prepare([userMessage("hello")]);
    expect(prepared.messages).toEqual([userMessage("hello")]);
  });
});
