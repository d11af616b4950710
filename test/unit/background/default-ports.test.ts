import { describe, expect, it } from "vitest";
import { createBackgroundTasks } from "../../../src/background-tasks.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";

describe("createBackgroundTasks of the root entry (the seed's)", () => {
  it("needs no ports: ids and the task time limit come from this process", async () => {
    const events: AgentEvent[] = [];
    const tasks = createBackgroundTasks({
      emit: (event) => events.push(event),
      signal: new AbortController().signal,
      limits: { maxTaskMs: 20 },
    });
    const quick = tasks.spawn({ label: "quick", run: async () => "done" });
    const stuck = tasks.spawn({ label: "stuck", run: () => new Promise(() => undefined) });
    expect(quick.id).not.toBe(stuck.id);
    const completions = [];
    for (let waited = 0; completions.length < 2 && waited < 2000; waited += 5) {
      completions.push(...tasks.takeCompleted());
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(completions.map((c) => [c.label, c.status])).toEqual([
      ["quick", "completed"],
      ["stuck", "failed"],
    ]);
  });
});
