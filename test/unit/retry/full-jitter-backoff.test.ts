import { describe, expect, it } from "vitest";
import type { AgentContext } from "../../../src/kernel/middleware/middleware.js";
import { backoffCeilingMs, fullJitterBackoff } from "../../../src/kernel/middleware/full-jitter-backoff.js";

function contextWithRandom(value: number): AgentContext {
  return { ports: { random: () => value } } as unknown as AgentContext;
}

describe("fullJitterBackoff", () => {
  it("doubles the ceiling from 250 ms and caps it at 8000 ms", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 100].map(backoffCeilingMs)).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it("scales the ceiling by ports.random()", () => {
    expect(fullJitterBackoff(1, contextWithRandom(0))).toBe(0);
    expect(fullJitterBackoff(3, contextWithRandom(0.25))).toBe(250);
    expect(fullJitterBackoff(10, contextWithRandom(0.5))).toBe(4000);
  });
});
