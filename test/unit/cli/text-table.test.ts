import { describe, expect, it } from "vitest";
import { textTable } from "../../../src/cli/render/text-table.js";
import { SESSION_TABLE_HEADER, sessionCells, sessionRow } from "../../../src/cli/render/session-rows.js";

describe("textTable", () => {
  it("aligns columns two spaces apart without padding the last one", () => {
    expect(
      textTable(
        ["ID", "STATUS", "NOTE"],
        [
          ["s-1", "awaiting_approval", "x"],
          ["session-22", "idle", "longer note"],
        ],
      ),
    ).toBe(
      [
        "ID          STATUS             NOTE",
        "s-1         awaiting_approval  x",
        "session-22  idle               longer note",
        "",
      ].join("\n"),
    );
  });
});

describe("sessionRow", () => {
  const startTime = new Date("2026-01-02T03:04:05.678Z");

  it("reads the search attributes, which the SDK gives as lists", () => {
    const row = sessionRow({
      sessionId: "s-1",
      status: "RUNNING",
      startTime,
      searchAttributes: {
        AgentName: ["refunds"],
        AgentStatus: ["awaiting_approval"],
        AgentTurns: [3],
        AgentTokens: [1200],
        AgentCost: [0.0042],
      },
    });
    expect(row).toEqual({
      sessionId: "s-1",
      agent: "refunds",
      status: "awaiting_approval",
      turns: 3,
      tokens: 1200,
      cost: 0.0042,
      startTime: "2026-01-02T03:04:05.678Z",
    });
    expect(sessionCells(row)).toEqual([
      "s-1",
      "refunds",
      "awaiting_approval",
      "3",
      "1200",
      "0.0042",
      "2026-01-02 03:04:05Z",
    ]);
    expect(SESSION_TABLE_HEADER).toHaveLength(sessionCells(row).length);
  });

  it("shows the workflow's own status once it ended, and dashes for what is unknown", () => {
    const row = sessionRow({
      sessionId: "s-2",
      status: "COMPLETED",
      startTime,
      searchAttributes: { AgentStatus: "running" },
    });
    expect(row.status).toBe("completed");
    expect(sessionCells(row).slice(1, 6)).toEqual(["?", "completed", "-", "-", "-"]);
  });
});
