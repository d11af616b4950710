import { describe, expect, it } from "vitest";
import {
  interruptedToolContent,
  recoverInterruptedTools,
} from "../../../src/kernel/checkpoint/crash-recovery.js";
import { storeEvents } from "../../../src/kernel/checkpoint/store-events.js";
import { toolResultBlock, userMessage } from "../../../src/kernel/vocabulary/messages.js";
import type { SessionEvent } from "../../../src/kernel/vocabulary/session-events.js";

const started = (id: string, name: string, turn: number): SessionEvent => ({
  type: "tool_started",
  id,
  name,
  turn,
});
const finished = (id: string, turn: number): SessionEvent => ({
  type: "tool_result",
  result: toolResultBlock(id, "ok"),
  turn,
});

describe("recoverInterruptedTools", () => {
  it("builds a synthetic error result, keeping the turn, for a tool that started but never finished", () => {
    const recovery = recoverInterruptedTools([
      { type: "user", message: userMessage("go") },
      started("c1", "bash", 3),
    ]);
    expect(recovery.synthetic).toEqual([
      {
        type: "tool_result",
        result: {
          type: "tool_result",
          id: "c1",
          content: "Error: interrupted before completion (bash)",
          isError: true,
        },
        turn: 3,
      },
    ]);
    expect(recovery.recovered).toEqual([{ id: "c1", name: "bash", turn: 3 }]);
  });

  it("leaves completed tools alone", () => {
    const recovery = recoverInterruptedTools([started("c1", "bash", 1), finished("c1", 1)]);
    expect(recovery).toEqual({ synthetic: [], recovered: [] });
  });

  it("recovers only the interrupted calls of a batch, in the order they started", () => {
    const recovery = recoverInterruptedTools([
      started("c1", "read", 2),
      started("c2", "write", 2),
      started("c3", "bash", 2),
      finished("c2", 2),
    ]);
    expect(recovery.recovered.map((tool) => tool.id)).toEqual(["c1", "c3"]);
    expect(
      recovery.synthetic.map((event) => (event.type === "tool_result" ? event.result.id : null)),
    ).toEqual(["c1", "c3"]);
  });

  it("pairs starts and results per occurrence when a call id is reused in a later turn", () => {
    const recovery = recoverInterruptedTools([
      started("same", "x", 1),
      finished("same", 1),
      started("same", "x", 4),
    ]);
    expect(recovery.recovered).toEqual([{ id: "same", name: "x", turn: 4 }]);
  });

  it("reads stored events the same way", () => {
    const stored = storeEvents("s", 0, [started("c1", "bash", 1)], "1970-01-01T00:00:00.000Z");
    expect(recoverInterruptedTools(stored).recovered).toEqual([{ id: "c1", name: "bash", turn: 1 }]);
  });

  it("names the tool in the interrupted content", () => {
    expect(interruptedToolContent("web_fetch")).toBe("Error: interrupted before completion (web_fetch)");
  });
});
