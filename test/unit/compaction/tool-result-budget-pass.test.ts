import { describe, expect, it } from "vitest";
import { memorySpillStore } from "../../../src/kernel/compaction/memory-spill-store.js";
import { SPILL_PREFIX, spillMarker, spillRef } from "../../../src/kernel/compaction/passes/spill-marker.js";
import { toolResultBudgetPass } from "../../../src/kernel/compaction/passes/tool-result-budget-pass.js";
import { bodyOf, resultOf } from "./fixtures.js";

describe("toolResultBudgetPass", () => {
  it("spills the largest results until the rest fits, leaving retrievable markers", () => {
    const store = memorySpillStore();
    const messages = [
      resultOf("a", "x".repeat(100)),
      resultOf("b", "y".repeat(10)),
      resultOf("c", "z".repeat(100)),
    ];
    const out = toolResultBudgetPass({ store, budgetBytes: 50 }).apply(messages);
    expect(bodyOf(out[0])).toBe(
      '[spilled:m1] 100 bytes moved off-context — call read_spilled({ ref: "m1" }) to read it',
    );
    expect(bodyOf(out[2])).toBe(spillMarker("m2", 100));
    expect(out[1]).toBe(messages[1]);
    expect(store.get("m1")).toBe("x".repeat(100));
    expect(store.get("m2")).toBe("z".repeat(100));
    expect(out[0]?.content).toMatchObject([{ type: "tool_result", id: "a" }]);
    expect(bodyOf(messages[0])).toBe("x".repeat(100));
  });

  it("spills only as many as needed, largest first", () => {
    const store = memorySpillStore();
    const messages = [resultOf("a", "x".repeat(30)), resultOf("b", "y".repeat(60))];
    const out = toolResultBudgetPass({ store, budgetBytes: 40 }).apply(messages);
    expect(bodyOf(out[0])).toBe("x".repeat(30));
    expect(bodyOf(out[1]).startsWith(SPILL_PREFIX)).toBe(true);
  });

  it("returns the same array when the bodies fit the budget (default 200_000)", () => {
    const messages = [resultOf("a", "x".repeat(200_000))];
    expect(toolResultBudgetPass({ store: memorySpillStore() }).apply(messages)).toBe(messages);
  });

  it("does not count or re-spill spilled bodies", () => {
    const store = memorySpillStore();
    const pass = toolResultBudgetPass({ store, budgetBytes: 50 });
    const once = pass.apply([resultOf("a", "x".repeat(100))]);
    expect(pass.apply(once)).toBe(once);
    expect(store.get("m2")).toBeNull();
  });
});

describe("memorySpillStore", () => {
  it("round-trips content with deterministic refs", () => {
    const first = memorySpillStore();
    const second = memorySpillStore();
    expect([first.put("a"), first.put("b")]).toEqual(["m1", "m2"]);
    expect([second.put("a"), second.put("b")]).toEqual(["m1", "m2"]);
    expect(first.get("m2")).toBe("b");
    expect(first.get("nope")).toBeNull();
  });
});

describe("spillRef", () => {
  it("reads the ref back from a marker and rejects other text", () => {
    expect(spillRef(spillMarker("m7", 3))).toBe("m7");
    expect(spillRef("plain result")).toBeUndefined();
  });
});
