import { describe, expect, it } from "vitest";
import type { AgentEvent, RunResult } from "../../../src/kernel/vocabulary/events.js";
import type { DurableEvent } from "../../../src/client/events/run-event-stream.js";
import { withSubagentEvents } from "../../../src/client/events/subagent-events.js";

const usage = { inputTokens: 1, outputTokens: 1 };
const result: RunResult = { messages: [], text: "done", usage, stopReason: "stop" };
const at = (offset: number, event: AgentEvent): DurableEvent => ({ ...event, offset, runId: "r" });
const subagent = (offset: number, phase: "start" | "end") =>
  at(offset, { type: "subagent", phase, forkId: "f1", sessionId: "child", agent: "researcher" });

async function* parentRun(): AsyncGenerator<DurableEvent, RunResult> {
  yield subagent(1, "start");
  yield subagent(2, "end");
  yield at(3, { type: "turn_end", turn: 1, stopReason: "stop" });
  return result;
}

async function collectAll(stream: AsyncGenerator<DurableEvent, RunResult>) {
  const events: DurableEvent[] = [];
  for (;;) {
    const next = await stream.next();
    if (next.done) return { events, result: next.value };
    events.push(next.value);
  }
}

describe("withSubagentEvents", () => {
  it("merges the child's events, stamped with its fork, before the subagent's end", async () => {
    async function* child(): AsyncGenerator<DurableEvent, RunResult> {
      yield at(0, { type: "turn_start", turn: 1 });
      yield at(1, { type: "turn_end", turn: 1, stopReason: "stop" });
      return result;
    }
    const { events } = await collectAll(withSubagentEvents(parentRun(), () => child()));
    expect(events.map((event) => [event.type, event.forkId, event.offset])).toEqual([
      ["subagent", "f1", 1],
      ["turn_start", "f1", 1],
      ["turn_end", "f1", 1],
      ["subagent", "f1", 2],
      ["turn_end", undefined, 3],
    ]);
  });

  it("does not let a child that cannot be read hold the subagent's end and the rest of the run", async () => {
    let closed = false;
    let release: () => void = () => undefined;
    async function* unreadable(): AsyncGenerator<DurableEvent, RunResult> {
      try {
        yield at(0, { type: "turn_start", turn: 1 });
        // Its session never answers again (until the test releases it, after the parent's run has ended).
        await new Promise<void>((resolve) => (release = resolve));
        yield at(1, { type: "turn_end", turn: 1, stopReason: "stop" });
        return result;
      } finally {
        closed = true;
      }
    }
    const { events, result: ended } = await collectAll(
      withSubagentEvents(parentRun(), () => unreadable(), 50),
    );
    expect(ended.text).toBe("done");
    expect(events.map((event) => event.type)).toEqual(["subagent", "turn_start", "subagent", "turn_end"]);
    expect(events.at(-1)?.forkId).toBeUndefined();
    // The child's stream is closed once its pending read ends, and what it still brought is not merged.
    release();
    await expect.poll(() => closed).toBe(true);
  });
});
